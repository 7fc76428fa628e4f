/// An element of GF(2^255 − 19), the field of Curve25519, as five limbs of
/// 51 bits. After every operation each limb is below 2^52, so products of
/// two limbs (times 19 for the wrap-around) sum within a `UInt128` with
/// room to spare: the bounds hold for any input, none depends on the data.
///
/// Verification handles public data only (keys, signatures, messages), so
/// nothing here needs to run in constant time.
struct FieldElement: Sendable {
  private var limbs: (UInt64, UInt64, UInt64, UInt64, UInt64)

  private static let mask: UInt64 = (1 << 51) - 1

  private init(_ l0: UInt64, _ l1: UInt64, _ l2: UInt64, _ l3: UInt64, _ l4: UInt64) {
    limbs = (l0, l1, l2, l3, l4)
  }

  static let zero = FieldElement(0, 0, 0, 0, 0)
  static let one = FieldElement(1, 0, 0, 0, 0)

  init(small value: UInt64) {
    self = FieldElement(value & Self.mask, value >> 51, 0, 0, 0)
  }

  /// The element a 32-byte little-endian encoding names, its top bit
  /// ignored (it carries a sign elsewhere). Values from p to 2^255 − 1 are
  /// reduced: callers that need the encoding canonical compare
  /// ``bytes`` with what they read.
  init(bytes: [UInt8]) {
    func load(_ start: Int) -> UInt64 {
      var word: UInt64 = 0
      for index in (0..<8).reversed() { word = word << 8 | UInt64(bytes[start + index]) }
      return word
    }
    let w0 = load(0)
    let w1 = load(8)
    let w2 = load(16)
    let w3 = load(24) & 0x7FFF_FFFF_FFFF_FFFF
    self = FieldElement(
      w0 & Self.mask,
      (w0 >> 51 | w1 << 13) & Self.mask,
      (w1 >> 38 | w2 << 26) & Self.mask,
      (w2 >> 25 | w3 << 39) & Self.mask,
      w3 >> 12
    ).carried()
  }

  /// The canonical encoding: 32 bytes little-endian, fully reduced below p.
  var bytes: [UInt8] {
    var h = carried().carried()
    // Subtract p once when h ≥ p: h + 19 reaches 2^255 exactly then.
    var q = (h.limbs.0 &+ 19) >> 51
    q = (h.limbs.1 &+ q) >> 51
    q = (h.limbs.2 &+ q) >> 51
    q = (h.limbs.3 &+ q) >> 51
    q = (h.limbs.4 &+ q) >> 51
    h.limbs.0 &+= 19 &* q
    h.limbs.1 &+= h.limbs.0 >> 51
    h.limbs.0 &= Self.mask
    h.limbs.2 &+= h.limbs.1 >> 51
    h.limbs.1 &= Self.mask
    h.limbs.3 &+= h.limbs.2 >> 51
    h.limbs.2 &= Self.mask
    h.limbs.4 &+= h.limbs.3 >> 51
    h.limbs.3 &= Self.mask
    h.limbs.4 &= Self.mask
    let w0 = h.limbs.0 | h.limbs.1 << 51
    let w1 = h.limbs.1 >> 13 | h.limbs.2 << 38
    let w2 = h.limbs.2 >> 26 | h.limbs.3 << 25
    let w3 = h.limbs.3 >> 39 | h.limbs.4 << 12
    var out: [UInt8] = []
    out.reserveCapacity(32)
    for word in [w0, w1, w2, w3] {
      for shift in stride(from: 0, to: 64, by: 8) {
        out.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
      }
    }
    return out
  }

  var isZero: Bool { bytes.allSatisfy { $0 == 0 } }

  /// The sign RFC 8032 encodes: the low bit of the canonical value.
  var isNegative: Bool { bytes[0] & 1 == 1 }

  /// Each limb back below 2^51 (the lowest just above, after the wrap of
  /// the top carry times 19).
  private func carried() -> FieldElement {
    var (l0, l1, l2, l3, l4) = limbs
    l1 &+= l0 >> 51
    l0 &= Self.mask
    l2 &+= l1 >> 51
    l1 &= Self.mask
    l3 &+= l2 >> 51
    l2 &= Self.mask
    l4 &+= l3 >> 51
    l3 &= Self.mask
    l0 &+= 19 &* (l4 >> 51)
    l4 &= Self.mask
    return FieldElement(l0, l1, l2, l3, l4)
  }

  static func + (a: FieldElement, b: FieldElement) -> FieldElement {
    FieldElement(
      a.limbs.0 &+ b.limbs.0, a.limbs.1 &+ b.limbs.1, a.limbs.2 &+ b.limbs.2, a.limbs.3 &+ b.limbs.3,
      a.limbs.4 &+ b.limbs.4
    ).carried()
  }

  /// a − b as a + 2p − b: every limb of 2p exceeds any limb of b.
  static func - (a: FieldElement, b: FieldElement) -> FieldElement {
    FieldElement(
      a.limbs.0 &+ 0xF_FFFF_FFFF_FFDA &- b.limbs.0, a.limbs.1 &+ 0xF_FFFF_FFFF_FFFE &- b.limbs.1,
      a.limbs.2 &+ 0xF_FFFF_FFFF_FFFE &- b.limbs.2, a.limbs.3 &+ 0xF_FFFF_FFFF_FFFE &- b.limbs.3,
      a.limbs.4 &+ 0xF_FFFF_FFFF_FFFE &- b.limbs.4
    ).carried()
  }

  static prefix func - (a: FieldElement) -> FieldElement { .zero - a }

  static func * (a: FieldElement, b: FieldElement) -> FieldElement {
    let (a0, a1, a2, a3, a4) = (
      UInt128(a.limbs.0), UInt128(a.limbs.1), UInt128(a.limbs.2), UInt128(a.limbs.3), UInt128(a.limbs.4)
    )
    let (b0, b1, b2, b3, b4) = (
      UInt128(b.limbs.0), UInt128(b.limbs.1), UInt128(b.limbs.2), UInt128(b.limbs.3), UInt128(b.limbs.4)
    )
    let (c1, c2, c3, c4) = (b1 &* 19, b2 &* 19, b3 &* 19, b4 &* 19)
    let r0 = a0 &* b0 &+ a1 &* c4 &+ a2 &* c3 &+ a3 &* c2 &+ a4 &* c1
    var r1 = a0 &* b1 &+ a1 &* b0 &+ a2 &* c4 &+ a3 &* c3 &+ a4 &* c2
    var r2 = a0 &* b2 &+ a1 &* b1 &+ a2 &* b0 &+ a3 &* c4 &+ a4 &* c3
    var r3 = a0 &* b3 &+ a1 &* b2 &+ a2 &* b1 &+ a3 &* b0 &+ a4 &* c4
    var r4 = a0 &* b4 &+ a1 &* b3 &+ a2 &* b2 &+ a3 &* b1 &+ a4 &* b0
    let mask = UInt128(Self.mask)
    r1 &+= r0 >> 51
    r2 &+= r1 >> 51
    r3 &+= r2 >> 51
    r4 &+= r3 >> 51
    // The top carry can reach 2^61: times 19 it wraps a UInt64, not a UInt128.
    let low = (r0 & mask) &+ 19 &* (r4 >> 51)
    return FieldElement(
      UInt64(low & mask), UInt64(r1 & mask) &+ UInt64(low >> 51), UInt64(r2 & mask), UInt64(r3 & mask),
      UInt64(r4 & mask)
    ).carried()
  }

  var squared: FieldElement { self * self }

  /// self^exponent, the exponent given as 32 little-endian bytes.
  private func power(_ exponent: [UInt8]) -> FieldElement {
    var result = FieldElement.one
    for byte in exponent.reversed() {
      for bit in (0..<8).reversed() {
        result = result.squared
        if (byte >> UInt8(bit)) & 1 == 1 { result = result * self }
      }
    }
    return result
  }

  /// (p − 1) / 4 = 2^253 − 5, little-endian: 2 to it is √−1.
  private static let quarterExponent: [UInt8] = [0xFB] + [UInt8](repeating: 0xFF, count: 30) + [0x1F]

  /// self^(p − 2), self's inverse (0 for 0), by the addition chain of the
  /// reference implementation: 254 squarings and 11 multiplications,
  /// where the bit-by-bit power takes about twice as many steps.
  var inverted: FieldElement {
    let (z11, z2To250Minus1) = twoTo250MinusOne()
    return z2To250Minus1.squared(times: 5) * z11
  }

  /// self^((p − 5) / 8) = self^(2^252 − 3), the step of RFC 8032 §5.1.3's
  /// square root, by the same chain.
  var rootPower: FieldElement {
    twoTo250MinusOne().power.squared(times: 2) * self
  }

  /// self^11 and self^(2^250 − 1), the common part of both chains.
  private func twoTo250MinusOne() -> (z11: FieldElement, power: FieldElement) {
    let z2 = squared
    let z9 = z2.squared(times: 2) * self
    let z11 = z2 * z9
    let z2To5 = z11.squared * z9  // 2^5 − 1
    let z2To10 = z2To5.squared(times: 5) * z2To5
    let z2To20 = z2To10.squared(times: 10) * z2To10
    let z2To40 = z2To20.squared(times: 20) * z2To20
    let z2To50 = z2To40.squared(times: 10) * z2To10
    let z2To100 = z2To50.squared(times: 50) * z2To50
    let z2To200 = z2To100.squared(times: 100) * z2To100
    return (z11, z2To200.squared(times: 50) * z2To50)
  }

  /// self squared `count` times: self^(2^count).
  private func squared(times count: Int) -> FieldElement {
    var result = self
    for _ in 0..<count { result = result.squared }
    return result
  }

  static let squareRootOfMinusOne = FieldElement(small: 2).power(quarterExponent)

  static func == (a: FieldElement, b: FieldElement) -> Bool { a.bytes == b.bytes }
}
