/// A revoked keys file as `ssh-keygen -Y verify -r` accepts it in its plain
/// form: public keys one a line (`ssh-ed25519 AAAA… [comment]`), `#`
/// comments and blank lines ignored. An OpenSSH KRL (binary) is refused as
/// unsupported rather than read as no keys.
///
///     let revoked = try RevokedKeys(bytes: contents, file: "revoked_keys")
///     if revoked.contains(signature.publicKey) { … }
package struct RevokedKeys: Sendable {
  package static let maximumSize = 1 << 20

  package let file: String
  private let keys: Set<SSHPublicKey>

  private static let krlMagic = Array("SSHKRL\n\0".utf8)

  package init(bytes: [UInt8], file: String) throws(SignatureError) {
    guard bytes.count <= Self.maximumSize else {
      throw .oversized(what: "the revoked keys file \(file)", limit: Self.maximumSize)
    }
    guard !bytes.starts(with: Self.krlMagic) else { throw .unsupportedRevocationList(file: file) }
    self.file = file
    var keys: Set<SSHPublicKey> = []
    for (index, raw) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .enumerated()
    {
      var cursor = LineCursor(Array(raw.last == UInt8(ascii: "\r") ? raw.dropLast() : raw))
      cursor.skipSpace()
      if cursor.isAtEnd || cursor.peek == UInt8(ascii: "#") { continue }
      func bad(_ reason: String) -> SignatureError { .badLine(file: file, line: index + 1, reason: reason) }
      guard let type = cursor.token() else { throw bad("no key") }
      if let key = try SSHPublicKey.read(type: type, from: &cursor, bad: bad) { keys.insert(key) }
    }
    self.keys = keys
  }

  package func contains(_ key: SSHPublicKey) -> Bool { keys.contains(key) }
}
