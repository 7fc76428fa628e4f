import PlugboardKit

/// The level of plugboard's default ``StandardErrorLogger``: `--log-level`,
/// else `PLUGBOARD_LOG_LEVEL`, else the manifest's `"logLevel"`, else
/// `notice`; then `--quiet` raises it to at least `error` and `--verbose`
/// lowers it to at most `debug`.
package enum LogLevelChoice {
  package static let optionName = "--log-level"
  package static let environmentVariable = "PLUGBOARD_LOG_LEVEL"
  static let defaultLevel = LogLevel.notice

  /// `trace, debug, info, notice, warning or error`, for messages.
  package static var levelNames: String {
    let names = LogLevel.allCases.map(\.description)
    return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
  }

  /// The level in effect: `override` (flag or environment), else
  /// `manifest`, else ``defaultLevel``, adjusted for `verbosity`.
  static func level(override: LogLevel?, manifest: LogLevel?, verbosity: Verbosity) -> LogLevel {
    let level = override ?? manifest ?? defaultLevel
    switch verbosity {
    case .quiet: return max(level, .error)
    case .verbose: return min(level, .debug)
    case .normal: return level
    }
  }
}
