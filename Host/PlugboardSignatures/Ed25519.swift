import PlugboardDigest

/// Ed25519 signature verification (RFC 8032 §5.1.7), strict: the
/// cofactorless equation [S]B = R + [k]A, S below L, canonical encodings of
/// A and R, and neither of small order. A signature any other strict
/// verifier accepts is accepted here, and no second encoding of an accepted
/// signature is.
///
///     try Ed25519.verify(signature: signature, of: message, by: publicKey)
package enum Ed25519 {
  /// Why a signature is refused: each a value, rendered by
  /// `description`.
  package enum Rejection: Error, Equatable, Sendable, CustomStringConvertible {
    /// The key is not 32 bytes, or the signature not 64.
    case wrongLength
    /// S ≥ L.
    case nonCanonicalScalar
    /// A or R is encoded with y ≥ p, or as −0.
    case nonCanonicalPoint(PointRole)
    /// A or R is not a point of the curve.
    case notOnCurve(PointRole)
    /// A or R has order 1, 2, 4 or 8.
    case smallOrder(PointRole)
    /// Well formed, but not a signature of this message by this key.
    case mismatch

    package var description: String {
      switch self {
      case .wrongLength: "an Ed25519 key is 32 bytes and a signature 64"
      case .nonCanonicalScalar:
        "the signature's scalar S is not below the group order (a malleated signature)"
      case .nonCanonicalPoint(let role): "the \(role) is not canonically encoded"
      case .notOnCurve(let role): "the \(role) is not a point of the curve"
      case .smallOrder(let role): "the \(role) has small order, which proves nothing about a private key"
      case .mismatch: "the signature does not match the data and the key"
      }
    }
  }

  /// Which encoded point a rejection is about.
  package enum PointRole: Sendable, Equatable, CustomStringConvertible {
    case publicKey
    case commitment

    package var description: String {
      switch self {
      case .publicKey: "public key"
      case .commitment: "signature's point R"
      }
    }
  }

  /// Returns when `signature` (R ‖ S, 64 bytes) is `publicKey`'s (32
  /// bytes) over `message`; throws the reason otherwise.
  package static func verify(
    signature: [UInt8], of message: [UInt8], by publicKey: [UInt8]
  ) throws(Rejection) {
    guard publicKey.count == 32, signature.count == 64 else { throw .wrongLength }
    let rBytes = Array(signature[0..<32])
    let s = Array(signature[32..<64])
    guard Scalar.isCanonical(s) else { throw .nonCanonicalScalar }
    let a = try decode(publicKey, as: .publicKey)
    _ = try decode(rBytes, as: .commitment)
    var hasher = SHA512()
    hasher.update(rBytes)
    hasher.update(publicKey)
    hasher.update(message)
    let k = Scalar.reduced(hasher.finalize())
    // R' = [S]B − [k]A; R decoded canonically, so equal encodings are equal
    // points.
    let candidate = EdwardsPoint.combination(s, .base, k, -a)
    guard candidate.encoded == rBytes else { throw .mismatch }
  }

  private static func decode(_ bytes: [UInt8], as role: PointRole) throws(Rejection) -> EdwardsPoint {
    let point: EdwardsPoint
    do {
      point = try EdwardsPoint(strictlyDecoding: bytes)
    } catch .nonCanonical {
      throw .nonCanonicalPoint(role)
    } catch {
      throw .notOnCurve(role)
    }
    guard !point.hasSmallOrder else { throw .smallOrder(role) }
    return point
  }
}
