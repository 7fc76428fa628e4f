import PlugboardKit

/// Decoding of the top-level `logLevel`: the level of plugboard's default
/// logger, one of `trace`, `debug`, `info`, `notice`, `warning`, `error`.
extension ManifestDecoder {
  mutating func loggingSettings(_ members: ManifestMembers) {
    guard let value = members["logLevel"] else { return }
    let path = ManifestPath.root.key("logLevel")
    guard case .string(let text) = value else {
      report(path, "expected a string (\(LogLevelChoice.levelNames)), found \(value.kindDescription)")
      return
    }
    guard let level = LogLevel(name: text) else {
      let hint =
        KeySuggestion.closest(to: text, among: LogLevel.allCases.map(\.description))
        .map { "; did you mean \"\($0)\"?" } ?? ""
      report(path, "expected \(LogLevelChoice.levelNames), found \"\(text)\"\(hint)")
      return
    }
    logLevel = level
  }
}
