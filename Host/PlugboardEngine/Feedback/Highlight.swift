#if canImport(Glibc)
  import Glibc
#endif

/// Colours the `error:` and `warning:` that begin a line, for a person at
/// a terminal: red and yellow, bold. Only on a terminal, and never when
/// `NO_COLOR` is set to anything but the empty string (https://no-color.org):
/// a file, a pipe or a script gets the plain text.
///
/// It runs after ``Terminal/sanitize(_:keepingLineBreaks:)``, so the only
/// escape sequences on the way out are these.
enum Highlight {
  static let red = "\u{1B}[1;31m"
  static let yellow = "\u{1B}[1;33m"
  static let reset = "\u{1B}[0m"

  /// Whether to colour what goes to a descriptor: it is a terminal and
  /// `NO_COLOR` is unset or empty.
  static func enabled(isTerminal: Bool, noColor: String?) -> Bool {
    isTerminal && (noColor ?? "").isEmpty
  }

  /// Whether to colour what goes to `descriptor` in this process.
  static func enabled(forDescriptor descriptor: Int32) -> Bool {
    enabled(isTerminal: isatty(descriptor) == 1, noColor: getenv("NO_COLOR").map { String(cString: $0) })
  }

  /// `text` with the `error:` or `warning:` that begins any of its lines coloured.
  static func colour(_ text: String) -> String {
    guard TextBytes.anyLine(of: text, beginsWith: ["error:", "warning:"]) else { return text }
    return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      for (label, colour) in [("error:", red), ("warning:", yellow)] where line.hasPrefix(label) {
        return colour + label + reset + line.dropFirst(label.count)
      }
      return String(line)
    }.joined(separator: "\n")
  }
}
