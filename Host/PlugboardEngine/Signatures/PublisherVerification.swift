import PlugboardDigest
import PlugboardSignatures

#if canImport(Glibc)
  import Glibc
#endif

/// What `plugboard verify` checks for a publisher's CI: that a file's
/// signature would pass the check a deployment makes at vet, by the same
/// code (``SignerCheck``): the envelope, the `plugboard-plugin` namespace,
/// a key not revoked, the Ed25519 signature over the file's bytes, and,
/// given an allowed signers file, a line of it that lets the key sign the
/// plugin's name.
///
///     let verification = try PublisherVerification.make(
///       allowedSigners: "allowed_signers", revokedKeys: nil, at: time(nil)).get()
///     let signer = verification.verify("libWeather.so", signature: "libWeather.so.sig", principal: "Weather")
///
/// Every file is read as hostile: opened without blocking, regular files
/// only, each bounded as the deployment bounds it.
package struct PublisherVerification {
  private let signers: AllowedSigners?
  private let revoked: RevokedKeys?
  /// The allowed signers file as given, for messages.
  private let signersFile: String?
  /// When the keys' `valid-after` and `valid-before` are judged.
  private let time: Int

  /// Reads the allowed signers and revoked keys files given (either may be
  /// nil); the failure names the file, what is wrong and the fix.
  package static func make(allowedSigners: String?, revokedKeys: String?, at time: Int) -> Result<
    PublisherVerification, VerificationProblem
  > {
    func parsed<Parsed>(
      _ path: String?, kind: String, limit: Int, _ parse: ([UInt8]) throws(SignatureError) -> Parsed
    ) -> Result<Parsed?, VerificationProblem> {
      guard let path else { return .success(nil) }
      let shown = Terminal.sanitize(path)
      switch contents(of: path, limit: limit) {
      case .success(nil):
        return .failure(VerificationProblem("the \(kind) file \(shown) does not exist — correct its path"))
      case .failure(let reason):
        return .failure(VerificationProblem("the \(kind) file \(shown) cannot be read: \(reason.reason)"))
      case .success(let bytes?):
        return Result { () throws(SignatureError) in try parse(bytes) }.map(Optional.some).mapError {
          VerificationProblem("the \(kind) file \(shown) cannot be used: \($0) — correct it")
        }
      }
    }
    return parsed(allowedSigners, kind: "allowed signers", limit: AllowedSigners.maximumSize) {
      (bytes) throws(SignatureError) in
      try AllowedSigners(bytes: bytes, file: Terminal.sanitize(allowedSigners ?? ""))
    }.flatMap { signers in
      parsed(revokedKeys, kind: "revoked keys", limit: RevokedKeys.maximumSize) {
        (bytes) throws(SignatureError) in
        try RevokedKeys(bytes: bytes, file: Terminal.sanitize(revokedKeys ?? ""))
      }.map { revoked in
        PublisherVerification(signers: signers, revoked: revoked, signersFile: allowedSigners, time: time)
      }
    }
  }

  /// Who signed `file` with the signature at `signature`, for the plugin
  /// name `principal`; or why the deployment would refuse it, with the fix.
  package func verify(_ file: String, signature: String, principal: String) -> Result<
    PublisherSigner, VerificationProblem
  > {
    let sign = SignatureAdvice.signCommand(Terminal.sanitize(file))
    let listed = SignatureAdvice.listedKey(allowedSigners: signersFile, principal: principal)
    let shownSignature = Terminal.sanitize(signature)
    let armored: [UInt8]
    switch Self.contents(of: signature, limit: SSHSignature.maximumArmoredSize) {
    case .success(nil):
      return .failure(
        VerificationProblem(
          "is not signed: \(shownSignature) does not exist — sign it with \(listed): \(sign)"))
    case .failure(let reason):
      return .failure(
        VerificationProblem(
          "is not verified: its signature \(shownSignature) cannot be read: \(reason.reason) — make it a readable file, "
            + "or sign again: \(sign)"))
    case .success(let bytes?): armored = bytes
    }
    let digests: FileDigests
    switch FileDigests.of(file) {
    case .success(let read): digests = read
    case .failure(let failure): return .failure(VerificationProblem("cannot be read: \(failure)"))
    }
    let digest = { (algorithm: SSHSignature.HashAlgorithm) in
      algorithm == .sha512 ? digests.sha512 : digests.sha256.bytes
    }
    do throws(SignatureError) {
      guard let signers else {
        let key = try SignerCheck.signingKey(signature: armored, digest: digest, revoked: revoked)
        return .success(PublisherSigner(key: key, allowedBy: nil))
      }
      let signer = try SignerCheck.verify(
        signature: armored, digest: digest, principal: principal, allowedSigners: signers, revoked: revoked,
        at: time)
      return .success(
        PublisherSigner(
          key: signer.key,
          allowedBy: PublisherSigner.Allowance(
            file: signersFile ?? "", line: signer.entry.line, principals: signer.entry.principals.description,
            comment: signer.entry.comment)))
    } catch {
      return .failure(
        VerificationProblem(
          "is refused by its signature \(shownSignature): \(error) (signer: \(found(armored))) — "
            + SignatureAdvice.fix(error, sign: sign, listed: listed, principal: principal)))
    }
  }

  /// The key a refused signature names, and what the allowed signers file
  /// says of it, as a refusal at vet shows it; `unknown` when the envelope
  /// does not read.
  private func found(_ armored: [UInt8]) -> String {
    guard let signers, let signersFile else {
      return (try? SSHSignature(armored: armored)).map {
        PublisherSigner.keyType + " " + $0.publicKey.fingerprint
      }
        ?? "unknown"
    }
    let keys = LibrarySignatureCheck.Keys(signers: signers, revoked: revoked, file: signersFile)
    return LibrarySignatureCheck.foundSigner(armored, keys: keys) ?? "unknown"
  }

  /// The bytes of the regular file at `path` (a final link followed: the
  /// publisher names its own files), at most `limit` of them; nil when it
  /// does not exist; the reason it cannot be read otherwise.
  static func contents(of path: String, limit: Int) -> Result<[UInt8]?, SystemCallError> {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    let operation = "read \(Terminal.sanitize(path))"
    guard descriptor >= 0 else {
      if errno == ENOENT { return .success(nil) }
      return .failure(SystemCallError(operation))
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      return .failure(SystemCallError(operation, reason: "not a regular file"))
    }
    let bytes = FileBytes.pread(descriptor, at: 0, count: limit + 1)
    guard bytes.count <= limit else {
      return .failure(SystemCallError(operation, reason: "larger than \(limit) bytes"))
    }
    return .success(bytes)
  }
}

/// The key that signed a file `plugboard verify` checked, and the allowed
/// signers line that lets it sign the plugin, when a file was given.
package struct PublisherSigner: Sendable, Equatable {
  /// The one key type Plugboard verifies, as OpenSSH names it.
  package static let keyType = SSHPublicKey.ed25519TypeName

  /// The allowed signers line that let the key sign the plugin.
  package struct Allowance: Sendable, Equatable {
    /// The allowed signers file, as given.
    package let file: String
    package let line: Int
    /// The line's principals, as written (`team-a-*`).
    package let principals: String
    /// The rest of the line after the key, often who holds it.
    package let comment: String
  }

  /// `SHA256:…`, as `ssh-keygen -l` prints it.
  package let fingerprint: String
  package let allowedBy: Allowance?

  init(key: SSHPublicKey, allowedBy: Allowance?) {
    fingerprint = key.fingerprint
    self.allowedBy = allowedBy
  }
}

/// Why `plugboard verify` did not verify a file, or cannot begin: the rest
/// of a sentence naming the file, ending with the fix.
package struct VerificationProblem: Error, Equatable {
  package let text: String

  init(_ text: String) { self.text = text }
}

/// A file's SHA-256 and SHA-512, read once, in pieces, for either hash an
/// SSH signature may name; files larger than a deployment loads are
/// refused rather than read.
struct FileDigests {
  let sha256: SHA256.Digest
  let sha512: [UInt8]

  static func of(_ path: String) -> Result<FileDigests, SystemCallError> {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    let shown = Terminal.sanitize(path)
    guard descriptor >= 0 else { return .failure(SystemCallError("open \(shown)")) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      return .failure(SystemCallError("open \(shown)", reason: "not a regular file"))
    }
    var short = SHA256()
    var long = SHA512()
    var read = 0
    let limit = SealedCopy.maximumSize
    do throws(FileChunksError<SystemCallError>) {
      try FileChunks.read(descriptor, name: shown) { (chunk) throws(SystemCallError) in
        read += chunk.count
        guard read <= limit else {
          throw SystemCallError(
            "read \(shown)", reason: "larger than \(limit >> 20) MiB, which no deployment loads")
        }
        short.update(chunk)
        long.update(chunk)
      }
    } catch {
      switch error {
      case .read(let failure), .body(let failure): return .failure(failure)
      }
    }
    return .success(FileDigests(sha256: short.finalize(), sha512: long.finalize()))
  }
}
