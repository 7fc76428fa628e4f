/// How long one stage of one plugin may take: the one rule behind
/// `--stage-timeout SECONDS`, the manifest's `stageTimeout`, and the value
/// the supervised child passes its parent.
package enum StageTimeout {
  /// The longest a stage may be given, in seconds: an hour. Longer is a
  /// typo, not a wait anyone means.
  package static let maximumSeconds = 3600.0

  /// `text`, a number of seconds greater than zero and at most an hour, as
  /// a duration in whole milliseconds (rounded up); nil otherwise.
  package static func parse(_ text: String) -> Duration? {
    guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= maximumSeconds else {
      return nil
    }
    return .milliseconds(Int64((seconds * 1000).rounded(.up)))
  }
}
