import PlugboardEngine
import PlugboardKit

// `--log-level` and its environment variable are the command line's; the
// engine takes the level they choose (``HostSettings/logLevel``).
extension LogLevelChoice {
  /// The level the flag or the environment sets, nil when neither does; a
  /// misspelt level in either is a usage error.
  static func override(option: String?, environment: [String: String], command: String)
    -> Result<LogLevel?, UsageError>
  {
    for (text, source) in [(option, optionName), (environment[environmentVariable], environmentVariable)] {
      guard let text else { continue }
      guard let level = LogLevel(name: text) else {
        let hint =
          KeySuggestion.closest(to: text, among: LogLevel.allCases.map(\.description))
          .map { "; did you mean '\($0)'?" } ?? ""
        return .failure(
          UsageError(
            message: "\(source) takes \(levelNames), found '\(Terminal.sanitize(text))'\(hint)",
            command: command))
      }
      return .success(level)
    }
    return .success(nil)
  }
}
