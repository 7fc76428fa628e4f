/// How much a log message matters, least to most: a ``Logger`` writes the
/// messages at or above its ``Logger/minimumLevel`` and drops the others
/// before they are even built.
///
/// The operator chooses the level of plugboard's default logger with
/// `plugboard run --log-level LEVEL`, `PLUGBOARD_LOG_LEVEL` or the
/// manifest's `"logLevel"` (in that order); `--quiet` raises it to
/// ``error``, `--verbose` lowers it to ``debug``.
///
/// ```swift
/// LogLevel(name: "warning")  // .warning
/// LogLevel(name: "loud")     // nil
/// LogLevel.info < .error     // true
/// ```
///
/// Frozen: the six levels are the whole scale, so a `switch` over them
/// needs no `@unknown default`, and no release will add one.
@frozen
public enum LogLevel: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
  /// Step by step detail, for following one request through the code.
  case trace
  /// What a developer needs to see why something happened.
  case debug
  /// What the service is doing, in normal operation.
  case info
  /// Normal but significant: a configuration choice, a fallback taken.
  case notice
  /// Something is wrong but the service carries on.
  case warning
  /// Something failed.
  case error

  /// The level `name` spells (`"trace"` … `"error"`, as ``description``
  /// writes them); nil for any other text.
  public init?(name: String) {
    guard let level = Self.allCases.first(where: { $0.description == name }) else { return nil }
    self = level
  }

  /// `trace`, `debug`, `info`, `notice`, `warning` or `error`.
  public var description: String {
    switch self {
    case .trace: "trace"
    case .debug: "debug"
    case .info: "info"
    case .notice: "notice"
    case .warning: "warning"
    case .error: "error"
    }
  }

  public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
