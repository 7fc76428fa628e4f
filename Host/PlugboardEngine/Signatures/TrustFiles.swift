import PlugboardSignatures

#if canImport(Glibc)
  import Glibc
#endif

/// The allowed signers and revoked keys files a deployment's trust blocks
/// name, read once per bring-up and vetted like every file that brings
/// trust (``FileTrust``): whoever can change one chooses whose plugins
/// load, so it, and every folder above it, must be writable by its owner
/// only, and its owner root or the user running plugboard.
final class TrustFiles {
  private var signers: [String: Result<AllowedSigners, TrustFileProblem>] = [:]
  private var revoked: [String: Result<RevokedKeys, TrustFileProblem>] = [:]

  /// The allowed signers file at `path` (absolute), or why it cannot be
  /// used; `place` is where the manifest names it.
  func allowedSigners(_ path: String, place: String) -> Result<AllowedSigners, TrustFileProblem> {
    Self.cached(in: &signers, path, place: place, kind: "allowed signers", limit: AllowedSigners.maximumSize)
    {
      (bytes) throws(SignatureError) in try AllowedSigners(bytes: bytes, file: path)
    }
  }

  /// The revoked keys file at `path` (absolute), or why it cannot be used.
  func revokedKeys(_ path: String, place: String) -> Result<RevokedKeys, TrustFileProblem> {
    Self.cached(in: &revoked, path, place: place, kind: "revoked keys", limit: RevokedKeys.maximumSize) {
      (bytes) throws(SignatureError) in try RevokedKeys(bytes: bytes, file: path)
    }
  }

  /// The file at `path` read, vetted and parsed by `parse` once per
  /// bring-up, its outcome kept in `cache`.
  private static func cached<Parsed>(
    in cache: inout [String: Result<Parsed, TrustFileProblem>], _ path: String, place: String, kind: String,
    limit: Int, parse: ([UInt8]) throws(SignatureError) -> Parsed
  ) -> Result<Parsed, TrustFileProblem> {
    if let known = cache[path] { return known }
    let result = read(path, place: place, kind: kind, limit: limit).flatMap { bytes in
      Result { () throws(SignatureError) in try parse(bytes) }.mapError { unusable(kind, path, place, $0) }
    }
    cache[path] = result
    return result
  }

  private static func unusable(_ kind: String, _ path: String, _ place: String, _ error: SignatureError)
    -> TrustFileProblem
  {
    TrustFileProblem(
      text: "the \(kind) file \(Terminal.sanitize(path)) (\(place)) cannot be used: \(error) — correct it")
  }

  /// What whoever can change one of these files can do.
  static let stake = "choose whose plugins plugboard runs"

  /// The bytes of the file at `path`, at most `limit` of them, read when
  /// it is safe to (``TrustedFileRead``). A problem reads on from "the
  /// allowed signers file PATH (PLACE) ".
  static func read(_ path: String, place: String, kind: String, limit: Int) -> Result<
    [UInt8], TrustFileProblem
  > {
    let read = TrustedFileRead.bytes(at: path, thing: "the \(kind) file", stake: stake, limit: limit)
    return read.mapError { failure in
      let detail =
        switch failure {
        case .missing: "does not exist — create it, or correct \(place)"
        case .unopenable(let reason): "cannot be opened: \(reason)"
        case .notRegular: "is not a regular file"
        case .unsafe(let problem): problem
        case .oversized(let limit): "is larger than \(limit) bytes"
        }
      return TrustFileProblem(text: "the \(kind) file \(Terminal.sanitize(path)) (\(place)) \(detail)")
    }
  }
}

/// Why an allowed signers or revoked keys file cannot be used: a sentence
/// naming the file, where the manifest names it, what is wrong and the fix.
struct TrustFileProblem: Error, Equatable {
  let text: String
}
