/// Text from a plugin or a file, made safe to print on a terminal.
package enum Terminal {
  /// `text` with every control character (C0, DEL, C1), Unicode line and
  /// paragraph separator and bidirectional control written as `\u{1B}`,
  /// so a message cannot move the cursor, change colours, retitle the
  /// window, begin a forged line, or reorder what the reader sees (Trojan
  /// Source, CVE-2021-42574).
  package static func sanitize(_ text: String) -> String {
    sanitize(text, keepingLineBreaks: false)
  }

  /// ``sanitize(_:)``, keeping line breaks when `keepingLineBreaks` is true:
  /// for text that is several lines on purpose (a report, JSON, help).
  static func sanitize(_ text: String, keepingLineBreaks: Bool) -> String {
    let escaped = { (scalar: Unicode.Scalar) in
      isUnprintable(scalar) && !(keepingLineBreaks && scalar == "\n")
    }
    guard TextBytes.holdsControl(text, exceptLineBreaks: keepingLineBreaks) else { return text }
    var result = ""
    for scalar in text.unicodeScalars {
      if escaped(scalar) {
        result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// C0 controls, DEL and C1 controls: the characters a terminal may act on.
  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }

  /// The bidirectional embeddings, overrides and isolates (U+202A–U+202E,
  /// U+2066–U+2069), which reorder the text around them on the screen.
  static func isBidirectionalControl(_ scalar: Unicode.Scalar) -> Bool {
    (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
  }

  /// What ``sanitize(_:)`` escapes: controls, bidirectional controls, and
  /// the line and paragraph separators (U+2028, U+2029), which some
  /// readers take for line breaks.
  package static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
    isControl(scalar) || isBidirectionalControl(scalar) || scalar.value == 0x2028 || scalar.value == 0x2029
  }

  /// Whether `text` holds a character ``sanitize(_:)`` escapes, line
  /// breaks included.
  static func holdsUnprintable(_ text: String) -> Bool {
    TextBytes.holdsControl(text, exceptLineBreaks: false)
  }
}
