#if canImport(Glibc)
  import Glibc
#endif

/// The signature check of vetting (``PluginVetting``), one per bring-up:
/// which trust block applies to each plugin, and the allowed signers and
/// revoked keys files they name, read once. A pinned plugin is held to its
/// pin instead: where both exist, the pin wins.
final class PluginSignatures {
  private let manifest: Manifest
  private let files = TrustFiles()

  init(manifest: Manifest) {
    self.manifest = manifest
  }

  /// `entry`'s library at `file` (canonical, read through `descriptor`)
  /// and its neighbours, sealed and checked; nil when no trust block
  /// applies, the plugin is pinned, or nothing is signed and nothing must
  /// be (it then loads as a plugin without trust).
  func vet(_ entry: PluginEntry, file: String, descriptor: Int32?) -> Result<
    SignedLibraries?, SignatureRefusal
  > {
    guard entry.sha256 == nil, let trust = manifest.signatureTrust(for: entry) else { return .success(nil) }
    let signersFile = FilePath.absolute(trust.allowedSigners, relativeTo: manifest.directory)
    func refusal(_ problem: TrustFileProblem) -> SignatureRefusal {
      SignatureRefusal(
        reason: .trustFile(problem), library: file, neighbour: nil, principal: entry.name, trust: trust,
        allowedSigners: signersFile)
    }
    let keys: LibrarySignatureCheck.Keys
    switch (
      files.allowedSigners(signersFile, place: trust.place + ".allowedSigners"),
      trust.revokedKeys.map {
        files.revokedKeys(
          FilePath.absolute($0, relativeTo: manifest.directory), place: trust.place + ".revokedKeys")
      }
    ) {
    case (.failure(let problem), _), (_, .failure(let problem)?): return .failure(refusal(problem))
    case (.success(let signers), let revoked):
      keys = LibrarySignatureCheck.Keys(signers: signers, revoked: try? revoked?.get(), file: signersFile)
    }
    return SignedLibraries.vet(
      file, descriptor: descriptor, name: entry.name, trust: trust, keys: keys, pins: pins, at: time(nil),
      proofs: proofs
    ).map { $0.isSigned ? $0 : nil }
  }

  /// Saves the proofs of the signatures this bring-up verified, for the
  /// next start (``SignatureProofs``); a failure is a warning, since it
  /// costs only time.
  func finish() {
    guard let kept = keptProofs, let warning = kept.save() else { return }
    StandardError.write("plugboard: warning: \(warning)", priority: .warning)
  }

  private lazy var pins = LibraryPins(manifest.libraryPins, directory: manifest.directory)

  /// Read at the first signature checked, so a deployment without trust
  /// never reads the file.
  private var keptProofs: SignatureProofs?
  private var proofs: SignatureProofs {
    if let keptProofs { return keptProofs }
    let (proofs, warning) = SignatureProofs.kept(
      cacheDirectory: getenv("CACHE_DIRECTORY").map { String(cString: $0) })
    if let warning { StandardError.write("plugboard: warning: \(warning)", priority: .warning) }
    keptProofs = proofs
    return proofs
  }
}
