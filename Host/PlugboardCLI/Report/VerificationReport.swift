import PlugboardEngine

/// What `plugboard verify` found, as data: its text lines and its `--json`
/// document come from this one value, so they never disagree. Field names
/// are the JSON's (Docs/schemas/verify.schema.json).
struct VerificationReport: Encodable {
  /// One FILE and what became of its signature.
  struct Result {
    let file: String
    let signature: String
    /// The plugin name the signer must be allowed to sign.
    let plugin: String
    let outcome: Swift.Result<PublisherSigner, VerificationProblem>
  }

  /// One FILE, as the JSON holds it.
  struct File: Encodable {
    let file: String
    let signature: String
    let plugin: String
    let verified: Bool
    /// `ssh-ed25519`; absent unless it verified.
    let keyType: String?
    /// `SHA256:…`, as `ssh-keygen -l` prints it; absent unless it verified.
    let fingerprint: String?
    /// The allowed signers line that lets the key sign the plugin; absent
    /// without `--allowed-signers` or unless it verified.
    let allowedBy: Allowance?
    /// Why it did not verify, and the fix; absent when it did.
    let problem: String?
  }

  struct Allowance: Encodable {
    let file: String
    let line: Int
    let principals: String
    /// Absent when the line has none.
    let comment: String?
  }

  /// ``JSONText/formatVersion``.
  let formatVersion = JSONText.formatVersion
  /// True when every file verified (the exit status is then 0).
  let healthy: Bool
  /// The allowed signers file given; absent without one.
  let allowedSigners: String?
  let files: [File]
  /// What kept any file from being checked (an allowed signers file that
  /// cannot be used); empty otherwise.
  let problems: [String]

  private let results: [Result]

  init(results: [Result], allowedSigners: String?, problems: [String]) {
    self.results = results
    self.allowedSigners = allowedSigners
    self.problems = problems
    healthy = problems.isEmpty && results.allSatisfy { if case .success = $0.outcome { true } else { false } }
    files = results.map { result in
      switch result.outcome {
      case .success(let signer):
        File(
          file: result.file, signature: result.signature, plugin: result.plugin, verified: true,
          keyType: PublisherSigner.keyType, fingerprint: signer.fingerprint,
          allowedBy: signer.allowedBy.map {
            Allowance(
              file: $0.file, line: $0.line, principals: $0.principals,
              comment: $0.comment.isEmpty ? nil : $0.comment)
          }, problem: nil)
      case .failure(let problem):
        File(
          file: result.file, signature: result.signature, plugin: result.plugin, verified: false,
          keyType: nil,
          fingerprint: nil, allowedBy: nil, problem: problem.text)
      }
    }
  }

  private enum CodingKeys: String, CodingKey {
    case formatVersion, healthy, allowedSigners, files, problems
  }

  /// One line on standard output per file that verified:
  /// `libWeather.so: signed by ssh-ed25519 key SHA256:…, allowed to sign
  /// "Weather" by allowed_signers:3 (team-*, "release key")`. The files
  /// that did not are reported on standard error.
  var lines: [String] {
    results.compactMap { result in
      guard case .success(let signer) = result.outcome else { return nil }
      let signed =
        "\(Terminal.sanitize(result.file)): signed by \(PublisherSigner.keyType) key \(signer.fingerprint)"
      let plugin = "\"\(Terminal.sanitize(result.plugin))\""
      guard let allowance = signer.allowedBy else {
        return signed + " (who may sign \(plugin) is not checked without --allowed-signers)"
      }
      let comment = allowance.comment.isEmpty ? "" : ", \"\(Terminal.sanitize(allowance.comment))\""
      return signed
        + ", allowed to sign \(plugin) by \(Terminal.sanitize(allowance.file)):\(allowance.line) "
        + "(\(Terminal.sanitize(allowance.principals))\(comment))"
    }
  }
}
