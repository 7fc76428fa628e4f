/// Who signed a file, once the signature verified and the allowed signers
/// file allowed its key: what `verify`, `list` and `explain` show.
package struct VerifiedSigner: Sendable, Equatable {
  package let key: SSHPublicKey
  /// The allowed signers line that allowed the key.
  package let entry: AllowedSigners.Entry

  package init(key: SSHPublicKey, entry: AllowedSigners.Entry) {
    self.key = key
    self.entry = entry
  }

  /// `SHA256:… (allowed_signers:3: team-a-*, "release key")`.
  package func describe(allowedSignersFile: String) -> String {
    let comment = entry.comment.isEmpty ? "" : ", \"\(Printable.text(Array(entry.comment.utf8)))\""
    return "\(key.fingerprint) (\(allowedSignersFile):\(entry.line): \(entry.principals)\(comment))"
  }
}

/// The whole check of one signed file, in the order that makes the most
/// useful refusal: the envelope reads, the namespace is Plugboard's, the key
/// is not revoked, the Ed25519 signature matches the file's digest, and the
/// allowed signers file lets the key sign `principal` (the plugin's name).
///
///     let signer = try SignerCheck.verify(
///       signature: sigBytes, digest: { SSHSignature.digest(of: library, with: $0) },
///       principal: "login", allowedSigners: signers, revoked: revoked, at: now)
package enum SignerCheck {
  /// `digest` computes the file's digest with the algorithm the signature
  /// names, so the caller hashes the bytes it is about to load. `principal`
  /// nil accepts any principal the key is listed for.
  package static func verify(
    signature armored: [UInt8], digest: @escaping (SSHSignature.HashAlgorithm) -> [UInt8], principal: String?,
    allowedSigners: AllowedSigners, revoked: RevokedKeys?, at time: Int,
    namespace: String = SSHSignature.pluginNamespace
  ) throws(SignatureError) -> VerifiedSigner {
    try verify(
      signature: armored, match: .digest(digest), principal: principal, allowedSigners: allowedSigners,
      revoked: revoked, at: time, namespace: namespace)
  }

  /// How a signature is held to the file it signs.
  package enum Match {
    /// By the file's digest, with the algorithm the signature names, and
    /// one Ed25519 check.
    case digest((SSHSignature.HashAlgorithm) -> [UInt8])
    /// By the caller's proof that these very signature bytes were
    /// verified over this very file before: the Ed25519 check is skipped,
    /// every other step (the envelope, the namespace, revocation, the
    /// allowed signers file) is made again, since those may have changed.
    case verifiedEarlier
  }

  /// ``verify(signature:digest:principal:allowedSigners:revoked:at:namespace:)``,
  /// the signature held to the file by `match`.
  package static func verify(
    signature armored: [UInt8], match: Match, principal: String?, allowedSigners: AllowedSigners,
    revoked: RevokedKeys?, at time: Int, namespace: String = SSHSignature.pluginNamespace
  ) throws(SignatureError) -> VerifiedSigner {
    let key = try signingKey(signature: armored, match: match, revoked: revoked, namespace: namespace)
    let candidates = allowedSigners.entries(for: key, namespace: namespace, at: time)
    let entry = principal.map { name in candidates.first { $0.principals.matches(name) } } ?? candidates.first
    guard let entry else {
      throw .notAllowed(fingerprint: key.fingerprint, principal: principal, file: allowedSigners.file)
    }
    return VerifiedSigner(key: key, entry: entry)
  }

  /// The key that made the signature, once the envelope reads, the
  /// namespace is `namespace`, the key is not in `revoked` and the
  /// signature matches the file's digest: every step of ``verify(signature:digest:principal:allowedSigners:revoked:at:namespace:)``
  /// but the allowed signers file's, for a caller that has none to
  /// consult (a publisher checking what it signed).
  package static func signingKey(
    signature armored: [UInt8], digest: @escaping (SSHSignature.HashAlgorithm) -> [UInt8],
    revoked: RevokedKeys?,
    namespace: String = SSHSignature.pluginNamespace
  ) throws(SignatureError) -> SSHPublicKey {
    try signingKey(signature: armored, match: .digest(digest), revoked: revoked, namespace: namespace)
  }

  private static func signingKey(
    signature armored: [UInt8], match: Match, revoked: RevokedKeys?, namespace: String
  ) throws(SignatureError) -> SSHPublicKey {
    let signature = try SSHSignature(armored: armored)
    if let revoked, revoked.contains(signature.publicKey) {
      throw .revoked(fingerprint: signature.publicKey.fingerprint, file: revoked.file)
    }
    switch match {
    case .digest(let digest):
      try signature.verify(messageDigest: digest(signature.hashAlgorithm), namespace: namespace)
    case .verifiedEarlier: try signature.checkNamespace(namespace)
    }
    return signature.publicKey
  }
}
