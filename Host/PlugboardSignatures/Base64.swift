/// Standard base64 (RFC 4648 §4) decoding, strict: the alphabet, `=`
/// padding only at the end, and no bits left over, so one blob has one
/// text. Returns nil for anything else.
enum Base64 {
  private static let values: [Int8] = {
    var table = [Int8](repeating: -1, count: 256)
    for (index, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8
      .enumerated()
    {
      table[Int(character)] = Int8(index)
    }
    return table
  }()

  static func decode<Text: Collection<UInt8>>(_ text: Text) -> [UInt8]? {
    var out: [UInt8] = []
    out.reserveCapacity(text.count / 4 * 3)
    var accumulator: UInt32 = 0
    var bits = 0
    var padding = 0
    var count = 0
    for character in text {
      count += 1
      if character == UInt8(ascii: "=") {
        padding += 1
        continue
      }
      guard padding == 0 else { return nil }
      let value = values[Int(character)]
      guard value >= 0 else { return nil }
      accumulator = accumulator << 6 | UInt32(value)
      bits += 6
      if bits >= 8 {
        bits -= 8
        out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
        accumulator &= (1 << UInt32(bits)) - 1
      }
    }
    guard count % 4 == 0, padding <= 2, accumulator == 0 else { return nil }
    guard padding == 0 || (count - padding) % 4 == 4 - padding else { return nil }
    return out
  }

  static func encode(_ bytes: [UInt8]) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    var out: [UInt8] = []
    var index = 0
    while index < bytes.count {
      let chunk = Array(bytes[index..<min(index + 3, bytes.count)])
      let value = chunk.enumerated().reduce(UInt32(0)) {
        $0 | UInt32($1.element) << UInt32(16 - 8 * $1.offset)
      }
      for position in 0..<4 {
        if position <= chunk.count {
          out.append(alphabet[Int((value >> UInt32(18 - 6 * position)) & 63)])
        } else {
          out.append(UInt8(ascii: "="))
        }
      }
      index += 3
    }
    return String(decoding: out, as: UTF8.self)
  }
}
