/// A duration as `--verbose` and the progress line write it.
enum ElapsedTime {
  /// `0.4 ms`, `812.0 ms` below a second, `1.25 s` from a second on: one
  /// decimal of a millisecond, or two of a second.
  static func text(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let tenthsOfMilliseconds = seconds * 10_000 + attoseconds / 100_000_000_000_000
    if seconds < 1 {
      return "\(tenthsOfMilliseconds / 10).\(tenthsOfMilliseconds % 10) ms"
    }
    let hundredths = seconds * 100 + attoseconds / 10_000_000_000_000_000
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) s"
  }

  /// Whole seconds, `3 s`, for a line redrawn once a second.
  static func wholeSeconds(_ duration: Duration) -> String {
    "\(max(duration.components.seconds, 0)) s"
  }
}
