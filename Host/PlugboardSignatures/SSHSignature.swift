import PlugboardDigest

/// An OpenSSH signature (the SSHSIG format of OpenSSH's PROTOCOL.sshsig), as
/// `ssh-keygen -Y sign -n plugboard-plugin -f key lib.so` writes it to
/// `lib.so.sig`:
///
///     -----BEGIN SSH SIGNATURE-----
///     U1NIU0lH…
///     -----END SSH SIGNATURE-----
///
/// The armored blob is `"SSHSIG"`, `uint32 1`, then the strings
/// `publickey`, `namespace`, `reserved`, `hash_algorithm` and `signature`
/// (`string "ssh-ed25519", string sig[64]`). The key signed
/// `"SSHSIG" ‖ string namespace ‖ string reserved ‖ string hash_algorithm
/// ‖ string H(message)`.
///
///     let signature = try SSHSignature(armored: bytesOfSigFile)
///     try signature.verify(message: bytesOfLibrary, namespace: "plugboard-plugin")
package struct SSHSignature: Sendable, Equatable {
  /// The namespace Plugboard's plugin signatures are made in.
  package static let pluginNamespace = "plugboard-plugin"

  /// The largest signature file read: an Ed25519 SSHSIG is under 300 bytes
  /// armored; the cap leaves room for long namespaces and CRLF lines.
  package static let maximumArmoredSize = 8192

  /// The message digests SSHSIG allows.
  package enum HashAlgorithm: String, Sendable {
    case sha512
    case sha256
  }

  package let publicKey: SSHPublicKey
  package let namespace: String
  package let hashAlgorithm: HashAlgorithm
  /// R ‖ S, 64 bytes.
  let signature: [UInt8]
  private let reserved: [UInt8]

  private static let magic = Array("SSHSIG".utf8)
  private static let begin = Array("-----BEGIN SSH SIGNATURE-----".utf8)
  private static let end = Array("-----END SSH SIGNATURE-----".utf8)

  /// Reads the armored text of a `.sig` file. Throws `SignatureError` for
  /// an oversized file, missing armor, bad base64, or an envelope that
  /// does not read or uses what Plugboard does not verify.
  package init(armored text: [UInt8]) throws(SignatureError) {
    guard text.count <= Self.maximumArmoredSize else {
      throw .oversized(what: "the signature file", limit: Self.maximumArmoredSize)
    }
    try self.init(blob: Self.dearmored(text))
  }

  /// Reads the binary envelope, the armor's content.
  package init(blob: [UInt8]) throws(SignatureError) {
    var reader = SSHWireReader(blob)
    do {
      guard try reader.fixed(6) == Self.magic else { throw SignatureError.malformed("no SSHSIG preamble") }
      let version = try reader.uint32()
      guard version == 1 else { throw SignatureError.unsupportedVersion(version) }
      let keyBlob = try reader.string()
      let namespace = try reader.string()
      let reserved = try reader.string()
      let hash = try reader.string()
      let signatureBlob = try reader.string()
      guard reader.isAtEnd else { throw SignatureError.malformed("bytes after the signature") }
      publicKey = try SSHPublicKey(blob: keyBlob)
      guard !namespace.isEmpty, let name = String(validating: namespace, as: UTF8.self) else {
        throw SignatureError.malformed("an empty or undecodable namespace")
      }
      self.namespace = name
      guard let algorithm = HashAlgorithm(rawValue: String(decoding: hash, as: UTF8.self)) else {
        throw SignatureError.unsupportedHash(Printable.text(hash))
      }
      hashAlgorithm = algorithm
      self.reserved = reserved
      var inner = SSHWireReader(signatureBlob)
      let type = try inner.string()
      guard type == Array(SSHPublicKey.ed25519TypeName.utf8) else {
        throw SignatureError.unsupportedKeyType(Printable.text(type))
      }
      let raw = try inner.string()
      guard raw.count == 64, inner.isAtEnd else {
        throw SignatureError.malformed("an ssh-ed25519 signature is 64 bytes")
      }
      signature = raw
    } catch let error as SignatureError {
      throw error
    } catch {
      throw .malformed("the envelope is truncated")
    }
  }

  /// The base64 between the armor lines, decoded. Lines may end in CRLF;
  /// text before BEGIN and after END is ignored, as ssh-keygen does.
  private static func dearmored(_ text: [UInt8]) throws(SignatureError) -> [UInt8] {
    var lines = text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
      $0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0
    }
    guard let first = lines.firstIndex(where: { Array($0) == begin }) else {
      throw .notArmored("no BEGIN line")
    }
    lines.removeSubrange(...first)
    guard let last = lines.firstIndex(where: { Array($0) == end }) else { throw .notArmored("no END line") }
    let body = lines[..<last].joined()
    guard !body.isEmpty else { throw .notArmored("nothing between BEGIN and END") }
    guard let blob = Base64.decode(body) else {
      throw .notArmored("the text between BEGIN and END is not base64")
    }
    return blob
  }

  /// Checks the signature over the message's digest, computed by the
  /// caller with ``hashAlgorithm`` (a plugin is hashed as it is read).
  /// Throws `.wrongNamespace` or `.invalid` with the reason.
  package func verify(messageDigest: [UInt8], namespace expected: String) throws(SignatureError) {
    try checkNamespace(expected)
    var signed = SSHWireWriter()
    signed.raw(Self.magic)
    signed.string(Array(namespace.utf8))
    signed.string(reserved)
    signed.string(Array(hashAlgorithm.rawValue.utf8))
    signed.string(messageDigest)
    do {
      try Ed25519.verify(signature: signature, of: signed.bytes, by: publicKey.key)
    } catch {
      throw .invalid(error)
    }
  }

  /// Throws unless the signature was made in the namespace `expected`.
  package func checkNamespace(_ expected: String) throws(SignatureError) {
    guard namespace == expected else {
      throw .wrongNamespace(found: Printable.text(Array(namespace.utf8)), expected: expected)
    }
  }

  /// Checks the signature over `message`, hashing it whole.
  package func verify(message: [UInt8], namespace expected: String) throws(SignatureError) {
    try verify(messageDigest: Self.digest(of: message, with: hashAlgorithm), namespace: expected)
  }

  /// The digest SSHSIG signs for `message`.
  package static func digest(of message: [UInt8], with algorithm: HashAlgorithm) -> [UInt8] {
    switch algorithm {
    case .sha512: SHA512.hash(message)
    case .sha256: SHA256.hash(message).bytes
    }
  }
}
