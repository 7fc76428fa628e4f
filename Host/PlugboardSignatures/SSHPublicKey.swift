import PlugboardDigest

/// An Ed25519 public key as OpenSSH writes it: the wire blob
/// `string "ssh-ed25519", string key[32]`, shown as `ssh-ed25519 <base64>`
/// and fingerprinted `SHA256:<base64 of the blob's SHA-256, unpadded>` as
/// `ssh-keygen -l` prints it.
package struct SSHPublicKey: Hashable, Sendable, CustomStringConvertible {
  /// The 32-byte Ed25519 key.
  package let key: [UInt8]

  package static let ed25519TypeName = "ssh-ed25519"

  /// Key types OpenSSH knows that Plugboard does not verify: named, so the
  /// refusal says which and does not call them garbage.
  static let unsupportedTypeNames: Set<String> = [
    "ssh-rsa", "ssh-dss", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521",
    "sk-ecdsa-sha2-nistp256@openssh.com", "sk-ssh-ed25519@openssh.com", "rsa-sha2-256", "rsa-sha2-512",
  ]

  /// Whether `name` is a key type OpenSSH knows (certificates included).
  static func isKnownTypeName(_ name: String) -> Bool {
    name == ed25519TypeName || unsupportedTypeNames.contains(name) || name.hasSuffix("-cert-v01@openssh.com")
  }

  /// Reads a key as OpenSSH's key files write it on a line: its type
  /// `word` (already taken from the line), then its base64 blob from
  /// `cursor`. Returns nil for a known type Plugboard does not verify with:
  /// such a key signs nothing it accepts. Each refusal is made by `bad`,
  /// which places it in its file and line.
  static func read(
    type word: [UInt8], from cursor: inout LineCursor, bad: (String) -> SignatureError
  ) throws(SignatureError) -> SSHPublicKey? {
    let name = String(decoding: word, as: UTF8.self)
    guard isKnownTypeName(name) else { throw bad("unknown key type \"\(Printable.text(word))\"") }
    cursor.skipSpace()
    guard let encoded = cursor.token(), let blob = Base64.decode(encoded) else {
      throw bad("the key is not base64")
    }
    guard name == ed25519TypeName else { return nil }
    do {
      return try SSHPublicKey(blob: blob)
    } catch {
      throw bad("the key does not read: \(error)")
    }
  }

  package init(key: [UInt8]) {
    self.key = key
  }

  /// Reads a wire blob; throws `.unsupportedKeyType` for another type and
  /// `.malformed` for a blob that does not read.
  init(blob: [UInt8]) throws(SignatureError) {
    var reader = SSHWireReader(blob)
    guard let type = try? reader.string(), let key = try? reader.string() else {
      throw .malformedKey("the blob is truncated")
    }
    let name = String(decoding: type, as: UTF8.self)
    guard name == Self.ed25519TypeName else { throw .unsupportedKeyType(Printable.text(type)) }
    guard key.count == 32, reader.isAtEnd else { throw .malformedKey("an ssh-ed25519 key is 32 bytes") }
    self.key = key
  }

  var blob: [UInt8] {
    var writer = SSHWireWriter()
    writer.string(Array(Self.ed25519TypeName.utf8))
    writer.string(key)
    return writer.bytes
  }

  /// `SHA256:…`, as `ssh-keygen -l` and `ssh-keygen -Y verify` print it.
  package var fingerprint: String {
    var text = Base64.encode(SHA256.hash(blob).bytes)
    while text.hasSuffix("=") { text.removeLast() }
    return "SHA256:" + text
  }

  /// `ssh-ed25519 <base64>`, the form of an allowed signers line.
  package var description: String { Self.ed25519TypeName + " " + Base64.encode(blob) }
}
