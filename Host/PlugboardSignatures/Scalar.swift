/// Scalars modulo L = 2^252 + 27742317777372353535851937790883648493, the
/// order of edwards25519's prime subgroup, as 32 little-endian bytes.
enum Scalar {
  /// L, little-endian.
  static let order: [UInt8] = [
    0xED, 0xD3, 0xF5, 0x5C, 0x1A, 0x63, 0x12, 0x58, 0xD6, 0x9C, 0xF7, 0xA2, 0xDE, 0xF9, 0xDE, 0x14,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10,
  ]

  /// Whether 32 little-endian bytes are below L: RFC 8032 §5.1.7 refuses
  /// a signature whose S is not, which would otherwise make S + L a second
  /// valid signature for the same message.
  static func isCanonical(_ bytes: [UInt8]) -> Bool {
    guard bytes.count == 32 else { return false }
    for index in (0..<32).reversed() where bytes[index] != order[index] {
      return bytes[index] < order[index]
    }
    return false
  }

  /// A 64-byte little-endian number (a SHA-512 digest) modulo L, by long
  /// division a byte at a time: r < L < 2^253, so 256·r + byte < 2^261 fits
  /// five 64-bit words, and nine shifted subtractions of L reduce it.
  static func reduced(_ wide: [UInt8]) -> [UInt8] {
    let modulus = words(of: order)
    var r: [UInt64] = [0, 0, 0, 0, 0]
    for byte in wide.reversed() {
      // r = r·256 + byte
      var carry = UInt64(byte)
      for index in 0..<5 {
        let next = r[index] >> 56
        r[index] = r[index] << 8 | carry
        carry = next
      }
      for shift in (0...8).reversed() {
        let shifted = shiftedLeft(modulus, by: shift)
        if !isLess(r, shifted) { r = subtracting(shifted, from: r) }
      }
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(32)
    for word in r.prefix(4) {
      for shift in stride(from: 0, to: 64, by: 8) {
        bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
      }
    }
    return bytes
  }

  private static func words(of bytes: [UInt8]) -> [UInt64] {
    var words: [UInt64] = [0, 0, 0, 0, 0]
    for (index, byte) in bytes.enumerated() { words[index >> 3] |= UInt64(byte) << UInt64((index & 7) * 8) }
    return words
  }

  private static func shiftedLeft(_ value: [UInt64], by shift: Int) -> [UInt64] {
    guard shift > 0 else { return value }
    var out: [UInt64] = [0, 0, 0, 0, 0]
    for index in 0..<5 {
      out[index] = value[index] << UInt64(shift)
      if index > 0 { out[index] |= value[index - 1] >> UInt64(64 - shift) }
    }
    return out
  }

  private static func isLess(_ a: [UInt64], _ b: [UInt64]) -> Bool {
    for index in (0..<5).reversed() where a[index] != b[index] { return a[index] < b[index] }
    return false
  }

  private static func subtracting(_ b: [UInt64], from a: [UInt64]) -> [UInt64] {
    var out: [UInt64] = [0, 0, 0, 0, 0]
    var borrow: UInt64 = 0
    for index in 0..<5 {
      let (step, overflow1) = a[index].subtractingReportingOverflow(b[index])
      let (result, overflow2) = step.subtractingReportingOverflow(borrow)
      out[index] = result
      borrow = (overflow1 || overflow2) ? 1 : 0
    }
    return out
  }
}
