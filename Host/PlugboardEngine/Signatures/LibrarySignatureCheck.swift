import PlugboardSignatures

#if canImport(Glibc)
  import Glibc
#endif

/// The check of one library against its signature `LIB.sig`, the file
/// beside it: the signature is read by path (it is data checked by its
/// key, not trusted for where it lies), the library's digest comes from
/// its sealed copy, the bytes that are then loaded.
enum LibrarySignatureCheck {
  /// The signers and revoked keys a trust block names, read.
  struct Keys {
    let signers: AllowedSigners
    let revoked: RevokedKeys?
    /// The allowed signers file's path, absolute.
    let file: String
  }

  /// `library` (canonical), read from `source` (from its current offset),
  /// sealed into a private copy, and who signed that copy for
  /// `principal`: nil when it has no signature file and `require` is
  /// false; or why it is refused. `plugin` loads it.
  ///
  /// The copy is hashed as it is made and the signature checked over the
  /// digest, unless `proofs` holds a proof that this signature verified
  /// over this file at an earlier start; a signature verified now is kept
  /// there when the file did not change while it was read.
  ///
  /// `beforeCopy` runs between the proof's look-up and the copy, where a
  /// write to the file must not go unseen (tests write there).
  static func seal(
    _ library: String, from source: Int32, of plugin: String, principal: String, keys: Keys, require: Bool,
    at time: Int, proofs: SignatureProofs, beforeCopy: () -> Void = {}
  ) -> Result<(copy: SealedCopy, signature: LibrarySignature?), SignatureRefusal.Reason> {
    let signatureFile = library + ".sig"
    let armored: [UInt8]?
    switch read(signatureFile) {
    case .success(let bytes): armored = bytes
    case .failure(let reason): return .failure(reason)
    }
    if armored == nil, require { return .failure(.unsigned(signatureFile)) }
    let proof = SignatureProofs.Stamp.of(source).flatMap { stamp in
      armored.map { SignatureProofs.Proof(file: stamp, signature: $0) }
    }
    let proven = proof.map(proofs.holds) ?? false
    let tick = SignatureProofs.tick()
    beforeCopy()
    let copy: SealedCopy
    switch SealedCopy.make(from: source, name: library, digests: armored == nil || proven ? [] : .sha512) {
    case .success(let made): copy = made
    case .failure(let failure): return .failure(.unreadable(failure))
    }
    guard let armored else { return .success((copy, nil)) }
    // The proof covers the file as its status showed it before the copy.
    // A write while the copy was made changes that status (the kernel
    // stamps the change time at every write), and the copy, which can no
    // longer change, is then checked in full.
    let unchanged = proof != nil && SignatureProofs.Stamp.of(source) == proof?.file
    let held = proven && unchanged
    let match: SignerCheck.Match =
      held ? .verifiedEarlier : .digest { $0 == .sha512 ? copy.sha512 : copy.digest.bytes }
    do throws(SignatureError) {
      let signer = try SignerCheck.verify(
        signature: armored, match: match, principal: principal, allowedSigners: keys.signers,
        revoked: keys.revoked, at: time)
      if !proven, unchanged, let proof { proofs.record(proof, readSince: tick) }
      let signature = LibrarySignature(
        plugin: plugin, library: library, signer: signer, allowedSigners: keys.file, verifiedEarlier: held)
      return .success((copy, signature))
    } catch {
      copy.close()
      return .failure(.rejected(signatureFile, error, signer: foundSigner(armored, keys: keys)))
    }
  }

  /// The key of a signature that was refused, and what the allowed
  /// signers file says of it: `SHA256:… (allowed_signers:3: team-a-*)`,
  /// `SHA256:… (not listed)`, or nil when the envelope does not read.
  static func foundSigner(_ armored: [UInt8], keys: Keys) -> String? {
    guard let signature = try? SSHSignature(armored: armored) else { return nil }
    let key = signature.publicKey
    guard let entry = keys.signers.entries.first(where: { $0.key == key }) else {
      return "\(key.fingerprint) (not listed in \(Terminal.sanitize(keys.file)))"
    }
    return VerifiedSigner(key: key, entry: entry).describe(allowedSignersFile: Terminal.sanitize(keys.file))
  }

  /// The signature file's bytes, nil when there is none, bounded by the
  /// largest signature read.
  static func read(_ path: String) -> Result<[UInt8]?, SignatureRefusal.Reason> {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
    guard descriptor >= 0 else {
      if errno == ENOENT { return .success(nil) }
      return .failure(.unreadableSignature(path, String(cString: strerror(errno))))
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      return .failure(.unreadableSignature(path, "not a regular file"))
    }
    let limit = SSHSignature.maximumArmoredSize
    let bytes = FileBytes.pread(descriptor, at: 0, count: limit + 1)
    guard bytes.count <= limit else {
      return .failure(.rejected(path, .oversized(what: "the signature file", limit: limit), signer: nil))
    }
    return .success(bytes)
  }
}
