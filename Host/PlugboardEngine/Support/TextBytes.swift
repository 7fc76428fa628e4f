/// Questions about a whole text answered over its UTF-8 bytes.
///
/// Everything plugboard prints passes ``Terminal/sanitize(_:keepingLineBreaks:)``,
/// and on a terminal ``Highlight/colour(_:)``: both first ask whether
/// there is anything to do, and the answer is almost always no. Asked by
/// scalars or characters, the two questions cost 3–5 ms on the 250 KB
/// that `plugboard list` prints for 200 plugins; over the
/// string's own bytes, a small fraction of that.
enum TextBytes {
  /// Whether `text` holds a character that ``Terminal/isUnprintable(_:)``
  /// names: a byte below 0x20 (but a line break, with `exceptLineBreaks`),
  /// DEL, the two bytes of a C1 control (0xC2 then 0x80–0x9F; in UTF-8,
  /// 0xC2 only ever leads a two-byte scalar, so the pair is exactly
  /// U+0080–U+009F), or the three of U+2028–U+202E (0xE2 0x80 0xA8–0xAE)
  /// or U+2066–U+2069 (0xE2 0x81 0xA6–0xA9).
  static func holdsControl(_ text: String, exceptLineBreaks: Bool) -> Bool {
    withBytes(of: text) { bytes in
      var (previous, beforeThat): (UInt8, UInt8) = (0, 0)
      for byte in bytes {
        if byte < 0x20 && !(exceptLineBreaks && byte == UInt8(ascii: "\n")) { return true }
        if byte == 0x7F || (previous == 0xC2 && (0x80...0x9F).contains(byte)) { return true }
        if beforeThat == 0xE2 {
          if previous == 0x80 && (0xA8...0xAE).contains(byte) { return true }
          if previous == 0x81 && (0xA6...0xA9).contains(byte) { return true }
        }
        (previous, beforeThat) = (byte, previous)
      }
      return false
    }
  }

  /// Whether a line of `text` (its start, or just after a line feed)
  /// begins with one of `prefixes`.
  static func anyLine(of text: String, beginsWith prefixes: [String]) -> Bool {
    let prefixes = prefixes.map { Array($0.utf8) }
    return withBytes(of: text) { bytes in
      var start = bytes.startIndex
      while start < bytes.endIndex {
        for prefix in prefixes where bytes[start...].starts(with: prefix) { return true }
        guard let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else { return false }
        start = newline + 1
      }
      return false
    }
  }

  /// Whether `bytes` are exactly `count` lower-case hexadecimal digits:
  /// how plugboard writes a digest or a stamp, and the only form in which
  /// it reads one back.
  static func areLowercaseHex(_ bytes: some Collection<UInt8>, count: Int) -> Bool {
    let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
    let letters = UInt8(ascii: "a")...UInt8(ascii: "f")
    return bytes.count == count && bytes.allSatisfy { digits.contains($0) || letters.contains($0) }
  }

  /// Runs `body` on the string's own UTF-8 buffer, or on a copy when it
  /// has none (a small or bridged string).
  private static func withBytes<Result>(
    of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result {
    if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
    return Array(text.utf8).withUnsafeBufferPointer(body)
  }
}
