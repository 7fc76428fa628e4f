import Foundation

/// `startup_sample_signed`'s deployment: the sample's manifest with a
/// top-level `trust` block that requires signatures, and every library it
/// can map signed as a publisher signs (`ssh-keygen -Y sign -n
/// plugboard-plugin`) by a key made for the run, which the allowed signers
/// file lets sign every plugin. Timed beside the unsigned sample, it shows
/// what verification at vet adds: each library copied into a sealed
/// memory file and hashed with SHA-512 on the way, its signature read and
/// one Ed25519 check.
struct SignedSample {
  /// The signed deployment's manifest, in the work folder.
  let manifest: URL
  /// The signature files written beside the release libraries.
  let signatures: [String]

  /// Makes the key, signs every shared library in the folders the sample
  /// loads from (the plugins and the neighbours they map from there), and
  /// writes the allowed signers file and the manifest into `work`.
  static func prepare(_ sample: SampleDeployment, work: URL, environment: [String: String]) -> Result<
    SignedSample, BenchFailure
  > {
    let files = FileManager.default
    let folder = work.appendingPathComponent("signing")
    let key = folder.appendingPathComponent("publisher")
    let log = work.appendingPathComponent("ssh-keygen.log")
    func keygen(_ arguments: [String]) -> Result<Void, BenchFailure> {
      let tool = ChildProcess(
        executable: "ssh-keygen", arguments: arguments, environment: environment, searchesPath: true)
      switch tool.run(.file(log.path)) {
      case .failure(let failure): return .failure(failure)
      case .success(let run) where run.status != 0:
        return .failure(BenchFailure("ssh-keygen failed (status \(run.status)); see \(log.path)"))
      case .success: return .success(())
      }
    }
    let libraryFolders = Set(
      sample.libraries.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().deletingLastPathComponent() })
    var signed: [String] = []
    do {
      try files.createDirectory(at: folder, withIntermediateDirectories: true)
      for libraryFolder in libraryFolders.sorted(by: { $0.path < $1.path }) {
        for name in try files.contentsOfDirectory(atPath: libraryFolder.path).sorted()
        where name.hasSuffix(".so") {
          let library = libraryFolder.appendingPathComponent(name).path
          // ssh-keygen asks before it replaces a signature.
          try? files.removeItem(atPath: library + ".sig")
          signed.append(library)
        }
      }
    } catch {
      return .failure(BenchFailure("cannot list the libraries to sign: \(error)"))
    }
    let made = keygen(["-q", "-t", "ed25519", "-N", "", "-C", "benchmark publisher", "-f", key.path])
      .flatMap { keygen(["-q", "-Y", "sign", "-n", "plugboard-plugin", "-f", key.path] + signed) }
    if case .failure(let failure) = made {
      return .failure(BenchFailure("cannot sign the sample (ssh-keygen on PATH is needed): \(failure)"))
    }
    let allowedSigners = work.appendingPathComponent("allowed_signers")
    let signedManifest = work.appendingPathComponent("sample-release-signed.json")
    do {
      let publicKey = try String(contentsOf: key.appendingPathExtension("pub"), encoding: .utf8)
      try Data(("* namespaces=\"plugboard-plugin\" " + publicKey).utf8).write(to: allowedSigners)
      guard
        var root = try JSONSerialization.jsonObject(with: Data(contentsOf: sample.manifest)) as? [String: Any]
      else { return .failure(BenchFailure("cannot read \(sample.manifest.path)")) }
      root["trust"] = ["allowedSigners": allowedSigners.path, "requireSignatures": true]
      try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys]).write(
        to: signedManifest)
    } catch {
      return .failure(BenchFailure("cannot write the signed sample's manifest: \(error)"))
    }
    return .success(SignedSample(manifest: signedManifest, signatures: signed.map { $0 + ".sig" }))
  }

  /// Removes the signatures, so the build folder holds what the build made.
  func removeSignatures() {
    for signature in signatures { try? FileManager.default.removeItem(atPath: signature) }
  }
}
