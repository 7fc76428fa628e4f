/// The start of a long text from a file, for a message: a manifest key or
/// name can be megabytes long, and a message that quotes it whole is as
/// long (an unknown key of 10 MB made a 10 MB error line).
enum Excerpt {
  /// Texts up to this many characters are quoted whole.
  static let longestQuoted = 64

  /// `text` itself when it is short, otherwise its first
  /// ``longestQuoted`` characters followed by `…(N bytes)`, N being the
  /// length of the whole text in UTF-8. Costs the characters kept, not the
  /// length of `text`.
  static func of(_ text: String) -> String {
    guard text.utf8.count > longestQuoted else { return text }
    let start = text.prefix(longestQuoted)
    guard start.endIndex < text.endIndex else { return text }
    return "\(start)…(\(text.utf8.count) bytes)"
  }
}
