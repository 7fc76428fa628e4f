/// Splits source text into the tokens that carry its meaning, dropping
/// comments and whitespace, so that a stamp of the tokens changes with the
/// declarations and not with how they are written down.
///
/// It knows just enough of Swift (and, for PlugboardKit's C header, of C) to
/// tell a comment from a string that contains `//`: line comments, doc
/// comments, block comments (nested in Swift), string literals with escapes
/// and interpolations, multi-line strings (whose indentation, set by the
/// closing delimiter, is not part of the value) and raw strings (`#"…"#`).
/// Everything else is a run of identifier characters or one punctuation
/// character. It never fails: text it does not understand, such as an
/// unterminated string or comment, still yields tokens, so any input is
/// stamped in time linear in its length.
///
/// Whitespace is dropped even where Swift gives it meaning (around an
/// operator, or the line break that keeps `f\n(x)` from being a call); a
/// change there that compiles differently is rare in declarations.
public struct SourceTokenizer {
  /// The language the text is in: Swift nests block comments, C does not
  /// and has character literals.
  public enum Language: Sendable {
    case swift, c
  }

  private let scalars: [Unicode.Scalar]
  private let language: Language
  private var index = 0
  /// How many interpolations enclose the scan; past `maximumNesting` an
  /// interpolation is kept as literal text, so hostile input cannot
  /// exhaust the stack.
  private var nesting = 0
  private static let maximumNesting = 32

  /// The tokens of `text`.
  public static func tokens(of text: String, language: Language = .swift) -> [String] {
    var tokenizer = SourceTokenizer(scalars: Array(text.unicodeScalars), language: language)
    var tokens: [String] = []
    tokenizer.scan(into: &tokens, untilClosingParenthesis: false)
    return tokens
  }

  private init(scalars: [Unicode.Scalar], language: Language) {
    self.scalars = scalars
    self.language = language
  }

  // MARK: Scanning

  private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
    index + offset < scalars.count ? scalars[index + offset] : nil
  }

  /// Scans tokens up to the end of the text or, inside an interpolation,
  /// up to the parenthesis that closes it (consumed, not emitted).
  private mutating func scan(into tokens: inout [String], untilClosingParenthesis: Bool) {
    var depth = 0
    while let scalar = peek() {
      if Self.isWhitespace(scalar) {
        index += 1
      } else if scalar == "/", peek(1) == "/" {
        while let next = peek(), next != "\n" { index += 1 }
      } else if scalar == "/", peek(1) == "*" {
        skipBlockComment()
      } else if scalar == "\"" || (scalar == "#" && startsRawString()) {
        tokens.append(scanString())
      } else if scalar == "'", language == .c {
        tokens.append(scanCharacterLiteral())
      } else if scalar == "`" {
        tokens.append(scanBacktickIdentifier())
      } else if Self.isIdentifier(scalar) {
        let start = index
        while let next = peek(), Self.isIdentifier(next) { index += 1 }
        tokens.append(text(start..<index))
      } else {
        index += 1
        if untilClosingParenthesis {
          if scalar == "(" { depth += 1 }
          if scalar == ")" {
            if depth == 0 { return }
            depth -= 1
          }
        }
        tokens.append(String(Character(scalar)))
      }
    }
  }

  private mutating func skipBlockComment() {
    index += 2
    var depth = 1
    while let scalar = peek(), depth > 0 {
      if scalar == "*", peek(1) == "/" {
        depth -= 1
        index += 2
      } else if scalar == "/", peek(1) == "*", language == .swift {
        depth += 1
        index += 2
      } else {
        index += 1
      }
    }
  }

  /// Whether the `#`s here open a raw string (`#"`, `##"`, …) rather than a
  /// directive such as `#if`.
  private func startsRawString() -> Bool {
    guard language == .swift else { return false }
    var offset = 0
    while peek(offset) == "#" { offset += 1 }
    return peek(offset) == "\""
  }

  /// A string literal, from its opening to its closing delimiter, as one
  /// token: the delimiters, the literal text, and each interpolation's
  /// tokens in brackets. A multi-line string's lines lose the indentation
  /// of its closing delimiter, which the compiler strips too.
  private mutating func scanString() -> String {
    var hashes = 0
    while peek() == "#" {
      hashes += 1
      index += 1
    }
    let multiLine = peek() == "\"" && peek(1) == "\"" && peek(2) == "\""
    let quotes = multiLine ? 3 : 1
    index += quotes
    var segments: [String] = []
    var literal = ""
    while let scalar = peek() {
      if scalar == "\"", closes(quotes: quotes, hashes: hashes) {
        index += quotes + hashes
        break
      }
      if !multiLine, scalar == "\n" { break }
      if scalar == "\\", escapeHashesMatch(hashes) {
        index += 1 + hashes
        if peek() == "(", nesting < Self.maximumNesting {
          index += 1
          var inner: [String] = []
          nesting += 1
          scan(into: &inner, untilClosingParenthesis: true)
          nesting -= 1
          segments.append(literal)
          literal = ""
          segments.append("\\(" + inner.joined(separator: "\u{1F}") + ")")
          continue
        }
        literal.unicodeScalars.append("\\")
        if let escaped = peek() {
          literal.unicodeScalars.append(escaped)
          index += 1
        }
        continue
      }
      literal.unicodeScalars.append(scalar)
      index += 1
    }
    segments.append(literal)
    let (hashMarks, quoteMarks) = (
      String(repeating: "#", count: hashes), String(repeating: "\"", count: quotes)
    )
    let body = multiLine ? Self.dedented(segments) : segments
    return hashMarks + quoteMarks + body.joined() + quoteMarks + hashMarks
  }

  private func closes(quotes: Int, hashes: Int) -> Bool {
    for offset in 0..<quotes where peek(offset) != "\"" { return false }
    for offset in 0..<hashes where peek(quotes + offset) != "#" { return false }
    return true
  }

  private func escapeHashesMatch(_ hashes: Int) -> Bool {
    for offset in 0..<hashes where peek(1 + offset) != "#" { return false }
    return true
  }

  /// The literal segments of a multi-line string without the closing
  /// delimiter's indentation: the text after the last line break of the
  /// last segment, when it is only spaces and tabs.
  private static func dedented(_ segments: [String]) -> [String] {
    guard let last = segments.last, let breakIndex = last.lastIndex(of: "\n") else { return segments }
    let indentation = last[last.index(after: breakIndex)...]
    guard !indentation.isEmpty, indentation.allSatisfy({ $0 == " " || $0 == "\t" }) else { return segments }
    return segments.map { segment in
      // Only literal text holds line breaks; an interpolation's tokens never do.
      guard !segment.hasPrefix("\\(") else { return segment }
      var lines = segment.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      for line in lines.indices where line > 0 && lines[line].hasPrefix(indentation) {
        lines[line].removeFirst(indentation.count)
      }
      return lines.joined(separator: "\n")
    }
  }

  private mutating func scanCharacterLiteral() -> String {
    let start = index
    index += 1
    while let scalar = peek(), scalar != "'", scalar != "\n" {
      index += scalar == "\\" ? 2 : 1
    }
    if peek() == "'" { index += 1 }
    return text(start..<min(index, scalars.count))
  }

  private mutating func scanBacktickIdentifier() -> String {
    let start = index
    index += 1
    while let scalar = peek(), scalar != "`", scalar != "\n" { index += 1 }
    if peek() == "`" { index += 1 }
    return text(start..<index)
  }

  private func text(_ range: Range<Int>) -> String {
    var result = ""
    result.unicodeScalars.append(contentsOf: scalars[range])
    return result
  }

  // MARK: Character classes

  private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.isWhitespace || scalar == "\0"
  }

  /// Letters, digits, `_`, `$` and any non-ASCII scalar that is not
  /// whitespace: what identifiers and number literals are made of.
  private static func isIdentifier(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.value >= 0x80 { return !scalar.properties.isWhitespace }
    return (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z")
      || (scalar >= "0" && scalar <= "9") || scalar == "_" || scalar == "$"
  }
}
