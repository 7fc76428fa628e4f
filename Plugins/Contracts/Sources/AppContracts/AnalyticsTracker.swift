/// Records product events. Provided by a third-party plugin; the app uses it
/// when present and runs without it otherwise.
public protocol AnalyticsTracker: Sendable {
  func track(_ event: String)
  /// The events recorded so far, oldest first.
  var events: [String] { get }
}
