/// Text from a plugin or a file, made safe to print on a terminal.
enum Terminal {
  /// `text` with every control character (C0, DEL, C1) but none written
  /// as `\u{1B}`, so a message cannot move the cursor, change colours or
  /// retitle the window of whoever reads it.
  static func sanitize(_ text: String) -> String {
    sanitize(text, keepingLineBreaks: false)
  }

  /// ``sanitize(_:)``, keeping line breaks when `keepingLineBreaks` is true:
  /// for text that is several lines on purpose (a report, JSON, help).
  static func sanitize(_ text: String, keepingLineBreaks: Bool) -> String {
    let escaped = { (scalar: Unicode.Scalar) in
      isControl(scalar) && !(keepingLineBreaks && scalar == "\n")
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
}
