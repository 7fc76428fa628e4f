/// A point of edwards25519 (−x² + y² = 1 + d·x²·y²) in extended coordinates
/// (X : Y : Z : T), x = X/Z, y = Y/Z, x·y = T/Z, with the formulas of
/// Hisil, Wong, Carter and Dawson for a = −1.
struct EdwardsPoint: Sendable {
  var x: FieldElement
  var y: FieldElement
  var z: FieldElement
  var t: FieldElement

  init(x: FieldElement, y: FieldElement, z: FieldElement, t: FieldElement) {
    self.x = x
    self.y = y
    self.z = z
    self.t = t
  }

  /// d = −121665 / 121666.
  static let d = -(FieldElement(small: 121_665) * FieldElement(small: 121_666).inverted)
  static let doubleD = d + d

  static let identity = EdwardsPoint(x: .zero, y: .one, z: .one, t: .zero)

  /// The base point B: y = 4/5, x even.
  static let base: EdwardsPoint = {
    let encoding: [UInt8] = [0x58] + [UInt8](repeating: 0x66, count: 31)
    // The constant decodes: it is RFC 8032's B.
    return (try? EdwardsPoint(strictlyDecoding: encoding)) ?? .identity
  }()

  /// Why an encoding does not name a point, as RFC 8032 §5.1.3 decodes.
  enum DecodingFailure: Error, Equatable, Sendable {
    /// y ≥ p, or x = 0 with its sign bit set: another encoding names the
    /// same point, and a strict verifier accepts one encoding only.
    case nonCanonical
    /// No x satisfies the curve equation for this y.
    case notOnCurve
  }

  /// Decodes a 32-byte encoding, refusing every non-canonical one.
  init(strictlyDecoding encoding: [UInt8]) throws(DecodingFailure) {
    guard encoding.count == 32 else { throw .notOnCurve }
    let y = FieldElement(bytes: encoding)
    var clearedSign = encoding
    clearedSign[31] &= 0x7F
    guard y.bytes == clearedSign else { throw .nonCanonical }
    let wantsNegative = encoding[31] >> 7 == 1
    let ySquared = y.squared
    let u = ySquared - .one
    let v = Self.d * ySquared + .one
    // x = u·v³·(u·v⁷)^((p−5)/8), then fixed up by √−1 when v·x² = −u.
    let v3 = v.squared * v
    let v7 = v3.squared * v
    var x = u * v3 * (u * v7).rootPower
    let check = v * x.squared
    if check == u {
      // x is a root.
    } else if check == -u {
      x = x * FieldElement.squareRootOfMinusOne
    } else {
      throw .notOnCurve
    }
    if x.isZero && wantsNegative { throw .nonCanonical }
    if x.isNegative != wantsNegative { x = -x }
    self.init(x: x, y: y, z: .one, t: x * y)
  }

  /// The canonical 32-byte encoding.
  var encoded: [UInt8] {
    let inverse = z.inverted
    let affineX = x * inverse
    var bytes = (y * inverse).bytes
    if affineX.isNegative { bytes[31] |= 0x80 }
    return bytes
  }

  var isIdentity: Bool { x.isZero && y == z }

  /// Whether 8·P is the identity: P lies in the torsion subgroup of order
  /// 1, 2, 4 or 8, where a signature proves nothing about a private key.
  var hasSmallOrder: Bool { doubled().doubled().doubled().isIdentity }

  static prefix func - (point: EdwardsPoint) -> EdwardsPoint {
    EdwardsPoint(x: -point.x, y: point.y, z: point.z, t: -point.t)
  }

  static func + (p: EdwardsPoint, q: EdwardsPoint) -> EdwardsPoint {
    let a = (p.y - p.x) * (q.y - q.x)
    let b = (p.y + p.x) * (q.y + q.x)
    let c = p.t * doubleD * q.t
    let zz = p.z * q.z
    let d = zz + zz
    let e = b - a
    let f = d - c
    let g = d + c
    let h = b + a
    return EdwardsPoint(x: e * f, y: g * h, z: f * g, t: e * h)
  }

  func doubled() -> EdwardsPoint {
    let a = x.squared
    let b = y.squared
    let zz = z.squared
    let c = zz + zz
    let e = (x + y).squared - a - b
    let g = b - a
    let f = g - c
    let h = -a - b
    return EdwardsPoint(x: e * f, y: g * h, z: f * g, t: e * h)
  }

  /// a·P + b·Q, scalars as 32 little-endian bytes, by one shared run of
  /// doublings (Straus): about 256 doublings and 192 additions in all.
  static func combination(_ a: [UInt8], _ p: EdwardsPoint, _ b: [UInt8], _ q: EdwardsPoint) -> EdwardsPoint {
    let both = p + q
    var result = EdwardsPoint.identity
    for index in (0..<256).reversed() {
      result = result.doubled()
      let bitA = (a[index >> 3] >> UInt8(index & 7)) & 1 == 1
      let bitB = (b[index >> 3] >> UInt8(index & 7)) & 1 == 1
      switch (bitA, bitB) {
      case (true, true): result = result + both
      case (true, false): result = result + p
      case (false, true): result = result + q
      case (false, false): break
      }
    }
    return result
  }
}
