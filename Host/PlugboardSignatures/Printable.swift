/// Bytes from a hostile file made safe to show: printable ASCII kept,
/// everything else (control characters, escapes, bytes of other encodings)
/// as `\xNN`, and at most `limit` bytes shown, so no message carries a
/// terminal escape or a megabyte.
enum Printable {
  static func text<Bytes: Collection<UInt8>>(_ bytes: Bytes, limit: Int = 80) -> String {
    var out = ""
    for byte in bytes.prefix(limit) {
      if byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\\") {
        out.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        let digits = Array("0123456789abcdef")
        out += "\\x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
      }
    }
    if bytes.count > limit { out += "…" }
    return out
  }
}
