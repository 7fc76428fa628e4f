import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// `plugboard verify FILE…`, run built against signatures `ssh-keygen -Y
/// sign` made: it prints who signed each file (the key's type and its
/// fingerprint as `ssh-keygen -l` prints it) and, with an allowed signers
/// file, the line that lets the key sign the plugin; a file that is
/// unsigned, changed since it was signed, signed for another namespace, by
/// a revoked key or by a key not allowed to sign it fails the command,
/// naming the file, the reason and the fix.
@Suite(.blocking, .enabled(if: SSHKeygen.shouldRun, SSHKeygen.missing))
struct VerifyCommandTests {
  /// A publisher's build output: Healthy and Auth's libraries, with
  /// alice's key, and an allowed signers file letting her sign Healthy.
  private struct Publisher {
    let deployment: SignedDeployment
    let healthy: String
    let auth: String
    var folder: String { deployment.folder }
    var signers: String { folder + "/allowed_signers" }

    init() throws {
      deployment = try SignedDeployment()
      healthy = try deployment.add(BuildProducts.library("Healthy"))
      auth = try deployment.add(BuildProducts.library("Auth"))
      try deployment.allow([("Healthy", try deployment.makeKey("alice"))])
    }

    func fingerprint(_ key: String) throws -> String { try deployment.keys.fingerprint(key) }

    func sign(_ library: String, with key: String = "alice", namespace: String = "plugboard-plugin") throws {
      try deployment.sign("plugins/" + library, with: key, namespace: namespace)
    }
  }

  private func verify(_ arguments: [String]) throws -> ProcessResult {
    try Subprocess.plugboard(["verify"] + arguments)
  }

  private func sign(_ file: String) -> String { "ssh-keygen -Y sign -n plugboard-plugin -f KEY \(file)" }

  @Test func printsWhoSignedEachFile() throws {
    let publisher = try Publisher()
    try publisher.sign("libHealthy.so")
    try publisher.sign("libAuth.so")
    let result = try verify([publisher.healthy, publisher.auth])
    #expect(result.stderr == "")
    #expect(result.status == 0)
    let alice = try publisher.fingerprint("alice")
    #expect(
      result.stdoutLines == [
        "\(publisher.healthy): signed by ssh-ed25519 key \(alice) (who may sign \"Healthy\" is not checked "
          + "without --allowed-signers)",
        "\(publisher.auth): signed by ssh-ed25519 key \(alice) (who may sign \"Auth\" is not checked without "
          + "--allowed-signers)",
      ])
  }

  /// The allowed signers file decides by the rule a deployment applies at
  /// vet: alice may sign Healthy, not Auth.
  @Test func anAllowedSignersFileNamesTheLineThatAllowsTheKey() throws {
    let publisher = try Publisher()
    try publisher.sign("libHealthy.so")
    try publisher.sign("libAuth.so")
    let allowed = try verify(["--allowed-signers", publisher.signers, publisher.healthy])
    #expect(allowed.stderr == "")
    #expect(allowed.status == 0)
    let alice = try publisher.fingerprint("alice")
    #expect(
      allowed.stdoutLines == [
        "\(publisher.healthy): signed by ssh-ed25519 key \(alice), allowed to sign \"Healthy\" by "
          + "\(publisher.signers):1 (Healthy, \"release key\")"
      ])
    let refused = try verify(["--allowed-signers", publisher.signers, publisher.healthy, publisher.auth])
    #expect(refused.status == 1)
    #expect(refused.stdoutLines.count == 1)
    #expect(
      refused.stderrLines == [
        "plugboard: verify: \(publisher.auth) is refused by its signature \(publisher.auth).sig: the signing key "
          + "\(alice) is not allowed to sign \"Auth\" by \(publisher.signers) (signer: \(alice) "
          + "(\(publisher.signers):1: Healthy, \"release key\")) — sign it with a key \(publisher.signers) lists "
          + "for \"Auth\", or list this key there with a principal pattern that matches \"Auth\" and "
          + "namespaces=\"plugboard-plugin\""
      ])
    let named = try verify(["--allowed-signers", publisher.signers, "--plugin", "Healthy", publisher.auth])
    #expect(named.status == 0)
  }

  @Test func aFileChangedSinceItWasSignedFails() throws {
    let publisher = try Publisher()
    try publisher.sign("libHealthy.so")
    let handle = try #require(FileHandle(forWritingAtPath: publisher.healthy))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data([0]))
    try handle.close()
    let result = try verify([publisher.healthy])
    #expect(result.status == 1)
    #expect(result.stdout == "")
    #expect(
      result.stderrLines == [
        "plugboard: verify: \(publisher.healthy) is refused by its signature \(publisher.healthy).sig: the "
          + "signature does not verify: the signature does not match the data and the key (signer: ssh-ed25519 "
          + "\(try publisher.fingerprint("alice"))) — the file changed since it was signed, or the signature is "
          + "another file's: deploy the file that was signed, or sign this one: \(sign(publisher.healthy))"
      ])
  }

  @Test func aSignatureForAnotherNamespaceFails() throws {
    let publisher = try Publisher()
    try publisher.sign("libHealthy.so", namespace: "file")
    let result = try verify(["--allowed-signers", publisher.signers, publisher.healthy])
    #expect(result.status == 1)
    #expect(
      result.stderrLines == [
        "plugboard: verify: \(publisher.healthy) is refused by its signature \(publisher.healthy).sig: the "
          + "signature is for the namespace \"file\", not \"plugboard-plugin\" (sign with ssh-keygen -Y sign -n "
          + "plugboard-plugin) (signer: \(try publisher.fingerprint("alice")) (\(publisher.signers):1: Healthy, "
          + "\"release key\")) — sign it in plugboard's namespace: \(sign(publisher.healthy))"
      ])
  }

  /// Each file is reported: the one without a signature fails, the signed
  /// one is still shown.
  @Test func aMissingSignatureFailsItsFileOnly() throws {
    let publisher = try Publisher()
    try publisher.sign("libAuth.so")
    let result = try verify([publisher.healthy, publisher.auth])
    #expect(result.status == 1)
    #expect(result.stdoutLines.count == 1)
    #expect(
      result.stdoutLines.first?.hasPrefix("\(publisher.auth): signed by ssh-ed25519 key SHA256:") == true)
    #expect(
      result.stderrLines == [
        "plugboard: verify: \(publisher.healthy) is not signed: \(publisher.healthy).sig does not exist — sign it "
          + "with a key the deployment's allowed signers file lists for \"Healthy\": \(sign(publisher.healthy))"
      ])
  }

  @Test func aRevokedKeyFails() throws {
    let publisher = try Publisher()
    try publisher.sign("libHealthy.so")
    let revoked = try publisher.deployment.keys.write(
      "revoked_keys", try publisher.deployment.keys.bytes("alice.pub"))
    let result = try verify(["--revoked-keys", revoked, publisher.healthy])
    #expect(result.status == 1)
    #expect(
      result.stderrLines == [
        "plugboard: verify: \(publisher.healthy) is refused by its signature \(publisher.healthy).sig: the signing "
          + "key \(try publisher.fingerprint("alice")) is revoked by \(revoked) (signer: ssh-ed25519 "
          + "\(try publisher.fingerprint("alice"))) — sign it with a key the deployment's allowed signers file "
          + "lists for \"Healthy\" that is not revoked: \(sign(publisher.healthy))"
      ])
  }

  /// `--signature` names the one file's signature elsewhere.
  @Test func aSignatureElsewhereIsNamedBySignature() throws {
    let publisher = try Publisher()
    try publisher.sign("libHealthy.so")
    let elsewhere = publisher.folder + "/healthy.signature"
    try FileManager.default.moveItem(atPath: publisher.healthy + ".sig", toPath: elsewhere)
    let result = try verify(["--signature", elsewhere, publisher.healthy])
    #expect(result.stderr == "")
    #expect(result.status == 0)
    let twice = try verify(["--signature", elsewhere, publisher.healthy, publisher.auth])
    #expect(twice.status == 2)
    #expect(
      twice.stderrLines == [
        "plugboard: --signature is for one FILE, and 2 were given; verify them one at a time, or name each "
          + "signature FILE.sig",
        "Run 'plugboard verify --help' for usage.",
      ])
  }

  /// What the files hold is shown escaped: a signature file that is not
  /// one is refused, and its bytes are never echoed; an oversized one is
  /// not read whole.
  @Test func hostileFilesAreBoundedAndNeverEchoed() throws {
    let publisher = try Publisher()
    let escape = "\u{1B}]0;owned\u{7}"
    let strange = try publisher.deployment.keys.write("lib\(escape).so", Array("x".utf8))
    try publisher.deployment.keys.write("lib\(escape).so.sig", Array("\(escape)\n".utf8))
    try publisher.deployment.keys.write(
      "plugins/libHealthy.so.sig", [UInt8](repeating: UInt8(ascii: "A"), count: 1 << 20))
    let result = try verify([strange, publisher.healthy])
    #expect(result.status == 1)
    #expect(!result.stderr.contains("\u{1B}") && !result.stderr.contains("\u{7}"))
    let shown = Terminal.sanitize(strange)
    #expect(
      result.stderrLines == [
        "plugboard: verify: \(shown) is refused by its signature \(shown).sig: not an SSH signature (no BEGIN "
          + "line): expected the armor -----BEGIN SSH SIGNATURE----- that ssh-keygen -Y sign writes (signer: "
          + "unknown) — sign it again with an Ed25519 key: \(sign(shown))",
        "plugboard: verify: \(publisher.healthy) is not verified: its signature \(publisher.healthy).sig cannot be "
          + "read: larger than 8192 bytes — make it a readable file, or sign again: \(sign(publisher.healthy))",
      ])
  }

  @Test func anAllowedSignersFileThatCannotBeUsedChecksNothing() throws {
    let publisher = try Publisher()
    try publisher.sign("libHealthy.so")
    try publisher.deployment.keys.write("allowed_signers", Array("Healthy ssh-ed25519 !!!\n".utf8))
    let result = try verify(["--allowed-signers", publisher.signers, "--json", publisher.healthy])
    #expect(result.status == 1)
    #expect(
      result.stderrLines == [
        "plugboard: verify: the allowed signers file \(publisher.signers) cannot be used: \(publisher.signers):1: "
          + "the key is not base64 — correct it"
      ])
    let document = try JSONParser.parse(result.stdout)
    #expect(document["healthy"] == .bool(false))
    #expect(document["files"] == .array([]))
  }

  /// `--json`: the same answers as data, as Docs/schemas/verify.schema.json
  /// describes them.
  @Test func jsonCarriesEachFilesSignerOrProblem() throws {
    let publisher = try Publisher()
    try publisher.sign("libHealthy.so")
    let result = try verify([
      "--allowed-signers", publisher.signers, "--json", publisher.healthy, publisher.auth,
    ])
    #expect(result.status == 1)
    let document = try JSONParser.parse(result.stdout)
    let schemas = SchemaValidator(folder: BuildProducts.packageRoot + "/Docs/schemas")
    #expect(try schemas.violations(of: document, against: "verify.schema.json") == [])
    #expect(document["healthy"] == .bool(false))
    #expect(document["allowedSigners"] == .string(publisher.signers))
    guard case .array(let files)? = document["files"], files.count == 2 else {
      Issue.record("expected two files: \(result.stdout)")
      return
    }
    #expect(files[0]["file"] == .string(publisher.healthy))
    #expect(files[0]["signature"] == .string(publisher.healthy + ".sig"))
    #expect(files[0]["plugin"] == .string("Healthy"))
    #expect(files[0]["verified"] == .bool(true))
    #expect(files[0]["keyType"] == .string("ssh-ed25519"))
    #expect(files[0]["fingerprint"] == .string(try publisher.fingerprint("alice")))
    #expect(files[0]["allowedBy"]?["file"] == .string(publisher.signers))
    #expect(files[0]["allowedBy"]?["line"] == .number("1"))
    #expect(files[0]["allowedBy"]?["principals"] == .string("Healthy"))
    #expect(files[0]["allowedBy"]?["comment"] == .string("release key"))
    #expect(files[1]["verified"] == .bool(false))
    #expect(files[1]["fingerprint"] == nil)
    #expect(
      files[1]["problem"]
        == .string(
          "is not signed: \(publisher.auth).sig does not exist — sign it with a key \(publisher.signers) lists for "
            + "\"Auth\": \(sign(publisher.auth))"))
  }

  @Test func helpEndsWithItsStatuses() throws {
    let help = try Subprocess.plugboard(["verify", "--help"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("Usage: plugboard verify FILE… [options]\n"))
    let missing = try verify([])
    #expect(missing.status == 2)
    #expect(missing.stderrLines.first == "plugboard: missing FILE…: plugboard verify FILE…")
  }
}
