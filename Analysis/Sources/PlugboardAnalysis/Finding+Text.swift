import PlugboardKit

extension Finding {
  /// The finding as `plugboard check` prints it: `error: …` (or
  /// `warning: …`), then what went wrong, the chain, did you mean, and
  /// the action, in the style of ``ResolutionError``'s report.
  public var lines: [String] {
    var lines = ["\(severity.rawValue): \(title)", "", "What went wrong:"]
    lines += explanation.map { "  \($0)" }
    if !chain.isEmpty {
      lines += ["", "\(chainTitle):"]
      lines += chain.enumerated().map { offset, step in (offset == 0 ? "  " : "  → ") + step.text }
    }
    if !suggestions.isEmpty {
      lines += ["", "Did you mean:"]
      lines += suggestions.map { "  - \($0)" }
    }
    lines += ["", "Action:", "  \(action)"]
    return lines
  }
}
