import PlugboardDigest
import Testing

@testable import PlugboardSignatures

/// SHA-512 and Ed25519 against published answers, and the strict checks a
/// verifier must make so that no second encoding of a signature, and no
/// key of small order, passes.
@Suite struct Ed25519Tests {
  @Test func sha512MatchesFIPS180Examples() {
    #expect(
      SHA512.hash(Array("abc".utf8)).hex
        == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
        + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
    #expect(
      SHA512.hash([]).hex
        == "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
        + "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e")
    // Two blocks, the padding spilling into the second.
    let twoBlocks = Array(
      ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
        + "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu").utf8)
    #expect(
      SHA512.hash(twoBlocks).hex
        == "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
        + "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909")
  }

  @Test func sha512GivesTheSameDigestWhateverTheUpdateSizes() {
    let message = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    var pieces = SHA512()
    var offset = 0
    for size in [1, 127, 128, 129, 3, 500, 112] {
      pieces.update(Array(message[offset..<offset + size]))
      offset += size
    }
    #expect(pieces.finalize() == SHA512.hash(message))
  }

  @Test(arguments: RFC8032Vectors.all.map(\.name))
  func rfc8032VectorVerifies(name: String) throws {
    let vector = try #require(RFC8032Vectors.all.first { $0.name == name })
    try Ed25519.verify(
      signature: [UInt8](hex: vector.signature), of: [UInt8](hex: vector.message),
      by: [UInt8](hex: vector.publicKey))
  }

  @Test(arguments: RFC8032Vectors.all.map(\.name))
  func rfc8032VectorRefusesAnotherMessage(name: String) throws {
    let vector = try #require(RFC8032Vectors.all.first { $0.name == name })
    let message = [UInt8](hex: vector.message) + [0]
    #expect(throws: Ed25519.Rejection.mismatch) {
      try Ed25519.verify(
        signature: [UInt8](hex: vector.signature), of: message, by: [UInt8](hex: vector.publicKey))
    }
  }

  private static let test1 = RFC8032Vectors.all[0]

  /// S + L satisfies the equation as S does: a malleated copy a lax
  /// verifier accepts.
  @Test func aScalarNotBelowTheOrderIsRefused() {
    let signature = [UInt8](hex: Self.test1.signature)
    var s = Array(signature[32...])
    var carry = 0
    for index in 0..<32 {
      let sum = Int(s[index]) + Int(Scalar.order[index]) + carry
      s[index] = UInt8(sum & 0xFF)
      carry = sum >> 8
    }
    #expect(throws: Ed25519.Rejection.nonCanonicalScalar) {
      try Ed25519.verify(
        signature: Array(signature[..<32]) + s, of: [], by: [UInt8](hex: Self.test1.publicKey))
    }
    // L itself, and all ones, are not below L either.
    for scalar in [Scalar.order, [UInt8](repeating: 0xFF, count: 32)] {
      #expect(throws: Ed25519.Rejection.nonCanonicalScalar) {
        try Ed25519.verify(
          signature: Array(signature[..<32]) + scalar, of: [], by: [UInt8](hex: Self.test1.publicKey))
      }
    }
  }

  /// The identity as key and as R with S = 0 satisfies the cofactorless
  /// equation for every message: refused for the key's small order.
  @Test func theIdentityAsKeyIsRefusedThoughTheEquationHolds() {
    let identity = [UInt8](hex: "0100000000000000000000000000000000000000000000000000000000000000")
    #expect(throws: Ed25519.Rejection.smallOrder(.publicKey)) {
      try Ed25519.verify(
        signature: identity + [UInt8](repeating: 0, count: 32), of: Array("any".utf8), by: identity)
    }
  }

  /// Points of order 2, 4 and 8.
  static let smallOrderPoints = [
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "0000000000000000000000000000000000000000000000000000000000000000",
    "0000000000000000000000000000000000000000000000000000000000000080",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
  ]

  @Test(arguments: smallOrderPoints)
  func aSmallOrderKeyIsRefused(point: String) {
    #expect(throws: Ed25519.Rejection.smallOrder(.publicKey)) {
      try Ed25519.verify(signature: [UInt8](hex: Self.test1.signature), of: [], by: [UInt8](hex: point))
    }
  }

  @Test(arguments: smallOrderPoints)
  func aSmallOrderCommitmentIsRefused(point: String) {
    let signature = [UInt8](hex: point) + Array([UInt8](hex: Self.test1.signature)[32...])
    #expect(throws: Ed25519.Rejection.smallOrder(.commitment)) {
      try Ed25519.verify(signature: signature, of: [], by: [UInt8](hex: Self.test1.publicKey))
    }
  }

  /// y = p + 1 names the identity's y, y = p the y of 0, and −0 the
  /// identity with the sign bit set: each a second encoding of a point.
  static let nonCanonicalEncodings = [
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "0100000000000000000000000000000000000000000000000000000000000080",
  ]

  @Test(arguments: nonCanonicalEncodings)
  func aNonCanonicalKeyIsRefused(encoding: String) {
    #expect(throws: Ed25519.Rejection.nonCanonicalPoint(.publicKey)) {
      try Ed25519.verify(signature: [UInt8](hex: Self.test1.signature), of: [], by: [UInt8](hex: encoding))
    }
  }

  @Test(arguments: nonCanonicalEncodings)
  func aNonCanonicalCommitmentIsRefused(encoding: String) {
    let signature = [UInt8](hex: encoding) + Array([UInt8](hex: Self.test1.signature)[32...])
    #expect(throws: Ed25519.Rejection.nonCanonicalPoint(.commitment)) {
      try Ed25519.verify(signature: signature, of: [], by: [UInt8](hex: Self.test1.publicKey))
    }
  }

  @Test func aYWithNoPointIsRefused() {
    // y = 2: (y² − 1)/(d·y² + 1) is not a square.
    let notOnCurve = [UInt8](hex: "0200000000000000000000000000000000000000000000000000000000000000")
    #expect(throws: Ed25519.Rejection.notOnCurve(.publicKey)) {
      try Ed25519.verify(signature: [UInt8](hex: Self.test1.signature), of: [], by: notOnCurve)
    }
  }

  @Test func wrongLengthsAreRefused() {
    #expect(throws: Ed25519.Rejection.wrongLength) {
      try Ed25519.verify(
        signature: [UInt8](repeating: 0, count: 63), of: [], by: [UInt8](repeating: 0, count: 32))
    }
    #expect(throws: Ed25519.Rejection.wrongLength) {
      try Ed25519.verify(
        signature: [UInt8](repeating: 0, count: 64), of: [], by: [UInt8](repeating: 0, count: 33))
    }
  }

  @Test func rejectionsRenderTheirReason() {
    #expect(
      "\(Ed25519.Rejection.smallOrder(.publicKey))"
        == "the public key has small order, which proves nothing about a private key")
    #expect(
      "\(Ed25519.Rejection.nonCanonicalScalar)"
        == "the signature's scalar S is not below the group order (a malleated signature)")
  }
}
