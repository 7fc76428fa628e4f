import Foundation
import PlugboardDigest
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// Plugins signed by their publishers, through the built `plugboard`: a
/// signed deployment runs where the manifest requires signatures, and a
/// plugin that is unsigned, changed since it was signed, signed for
/// another namespace, by a revoked key or by another team's key is refused
/// at vet, before any of it is mapped, each with its reason, the signer
/// found, the allowed signers file and the fix.
@Suite(.blocking, .enabled(if: SSHKeygen.shouldRun, SSHKeygen.missing))
struct SignedPluginTests {
  /// Healthy, copied into a signed deployment, alice's key allowed for it
  /// (and everything a test adds to `lines`).
  private func healthy(allowing principals: String = "Healthy") throws -> (SignedDeployment, String) {
    let deployment = try SignedDeployment()
    let plugin = try deployment.add(BuildProducts.library("Healthy"))
    try deployment.allow([(principals, try deployment.makeKey("alice"))])
    try deployment.manifest(SignedDeployment.requiring, [SignedDeployment.entry("Healthy", plugin)])
    return (deployment, plugin)
  }

  /// The refusal `run` prints for Healthy at `plugin`: `detail` after its name.
  private func refusal(_ deployment: SignedDeployment, _ detail: String) throws {
    let run = try deployment.plugboard(["run"])
    #expect(run.status == 78)
    let plugin = deployment.folder + "/plugins/libHealthy.so"
    #expect(run.stderrLines.first == "plugboard: vet: plugin 'Healthy' (\(plugin)) " + detail)
  }

  private func sign(_ file: String) -> String { "ssh-keygen -Y sign -n plugboard-plugin -f KEY \(file)" }

  /// Who signed, as a refusal names it.
  private func signer(
    _ deployment: SignedDeployment, _ key: String, line: Int = 1, _ principals: String = "Healthy"
  )
    throws -> String
  {
    "\(try deployment.keys.fingerprint(key)) (\(deployment.folder)/allowed_signers:\(line): \(principals), \"release key\")"
  }

  @Test func aSignedSampleRunsWhereSignaturesAreRequired() throws {
    let deployment = try SignedDeployment()
    var entries: [String] = []
    for name in ["Networking", "Keychain", "Auth", "Login", "IssueList", "Shell"] {
      let copy = try deployment.add(BuildProducts.library(name))
      entries.append(
        SignedDeployment.entry(
          name, copy,
          name == "Networking"
            ? #", "config": { "baseURL": "https://issues.example.com/api", "timeout": 5 }"# : ""))
    }
    let analytics = try deployment.add(try ThirdPartyBuild.analytics.get(), subfolder: "analytics")
    entries.append(SignedDeployment.entry("Analytics", analytics))
    try deployment.allow([("*", try deployment.makeKey("publisher"))])
    try deployment.signAll(with: "publisher")
    try deployment.manifest(SignedDeployment.requiring, entries)
    let run = try deployment.plugboard(["run"])
    #expect(run.stderr == "")
    #expect(run.status == 0)
    #expect(run.stdout.contains("Welcome, Ada Lovelace! Your session token is in the keychain."))
    #expect(run.stdout.contains("Analytics recorded: login.succeeded, issues.viewed"))
  }

  @Test func anUnsignedPluginIsRefused() throws {
    let (deployment, plugin) = try healthy()
    let file = deployment.folder + "/allowed_signers"
    try refusal(
      deployment,
      "is not signed: \(plugin).sig does not exist and trust.requireSignatures is true (signer: none; allowed "
        + "signers: \(file)) — sign it with a key \(file) lists for \"Healthy\": \(sign(plugin))")
  }

  @Test func aPluginChangedSinceItWasSignedIsRefused() throws {
    let (deployment, plugin) = try healthy()
    try deployment.sign("plugins/libHealthy.so", with: "alice")
    let handle = try #require(FileHandle(forWritingAtPath: plugin))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data([0]))
    try handle.close()
    try refusal(
      deployment,
      "is refused by its signature \(plugin).sig: the signature does not verify: the signature does not match the "
        + "data and the key (signer: \(try signer(deployment, "alice")); allowed signers: "
        + "\(deployment.folder)/allowed_signers) — the file changed since it was signed, or the signature is "
        + "another file's: deploy the file that was signed, or sign this one: \(sign(plugin))")
  }

  @Test func aSignatureForAnotherNamespaceIsRefused() throws {
    let (deployment, plugin) = try healthy()
    try deployment.sign("plugins/libHealthy.so", with: "alice", namespace: "file")
    try refusal(
      deployment,
      "is refused by its signature \(plugin).sig: the signature is for the namespace \"file\", not "
        + "\"plugboard-plugin\" (sign with ssh-keygen -Y sign -n plugboard-plugin) (signer: "
        + "\(try signer(deployment, "alice")); allowed signers: \(deployment.folder)/allowed_signers) — sign it "
        + "in plugboard's namespace: \(sign(plugin))")
  }

  @Test func aRevokedKeyIsRefused() throws {
    let (deployment, plugin) = try healthy()
    try deployment.sign("plugins/libHealthy.so", with: "alice")
    try deployment.keys.write("revoked_keys", try deployment.keys.bytes("alice.pub"))
    try deployment.manifest(
      #""trust": { "allowedSigners": "allowed_signers", "revokedKeys": "revoked_keys" },"#,
      [SignedDeployment.entry("Healthy", plugin)])
    let file = deployment.folder + "/allowed_signers"
    try refusal(
      deployment,
      "is refused by its signature \(plugin).sig: the signing key \(try deployment.keys.fingerprint("alice")) is "
        + "revoked by \(deployment.folder)/revoked_keys (signer: \(try signer(deployment, "alice")); allowed "
        + "signers: \(file)) — sign it with a key \(file) lists for \"Healthy\" that is not revoked: "
        + sign(plugin))
  }

  /// Team A's key may sign team A's plugins: Healthy is not one of them.
  @Test func anotherTeamsKeyIsRefused() throws {
    let deployment = try SignedDeployment()
    let plugin = try deployment.add(BuildProducts.library("Healthy"))
    try deployment.allow([
      ("team-a-*", try deployment.makeKey("team-a")), ("Healthy", try deployment.makeKey("team-b")),
    ])
    try deployment.manifest(SignedDeployment.requiring, [SignedDeployment.entry("Healthy", plugin)])
    try deployment.sign("plugins/libHealthy.so", with: "team-a")
    let file = deployment.folder + "/allowed_signers"
    let fingerprint = try deployment.keys.fingerprint("team-a")
    try refusal(
      deployment,
      "is refused by its signature \(plugin).sig: the signing key \(fingerprint) is not allowed to sign "
        + "\"Healthy\" by \(file) (signer: \(fingerprint) (\(file):1: team-a-*, \"release key\"); allowed signers: "
        + "\(file)) — sign it with a key \(file) lists for \"Healthy\", or list this key there with a principal "
        + "pattern that matches \"Healthy\" and namespaces=\"plugboard-plugin\"")
  }

  /// A neighbour the plugin loads from its folder is held to a signature
  /// too, by a key allowed for its library's name.
  @Test func anUnsignedNeighbourIsRefused() throws {
    let deployment = try SignedDeployment()
    let plugin = try deployment.add(BuildProducts.library("Auth"))
    let contracts = deployment.folder + "/plugins/libAppContracts.so"
    try deployment.allow([("*", try deployment.makeKey("publisher"))])
    try deployment.sign("plugins/libAuth.so", with: "publisher")
    try deployment.manifest(SignedDeployment.requiring, [SignedDeployment.entry("Auth", plugin)])
    let run = try deployment.plugboard(["run"])
    let file = deployment.folder + "/allowed_signers"
    #expect(run.status == 78)
    #expect(
      run.stderrLines.first
        == "plugboard: vet: plugin 'Auth' (\(plugin)) needs libAppContracts.so, which it loads from \(contracts), "
        + "and which is not signed: \(contracts).sig does not exist and trust.requireSignatures is true (signer: "
        + "none; allowed signers: \(file)) — sign it with a key \(file) lists for \"AppContracts\": "
        + sign(contracts))
  }

  /// Where both exist, the pin decides: a pinned plugin needs no signature.
  @Test func aPinWinsOverAMissingSignature() throws {
    let (deployment, plugin) = try healthy()
    let digest = try SHA256.hash(file: plugin).get().hex
    try deployment.manifest(
      SignedDeployment.requiring, [SignedDeployment.entry("Healthy", plugin, #", "sha256": "\#(digest)""#)])
    let run = try deployment.plugboard(["run"])
    #expect(run.stderr == "")
    #expect(run.status == 0)
  }

  /// Without `requireSignatures`, an unsigned plugin loads and a signed one
  /// is still verified.
  @Test func signaturesNotRequiredStillVerifyTheSignedOnes() throws {
    let (deployment, plugin) = try healthy()
    let optional = #""trust": { "allowedSigners": "allowed_signers", "requireSignatures": false },"#
    try deployment.manifest(optional, [SignedDeployment.entry("Healthy", plugin)])
    let unsigned = try deployment.plugboard(["run"])
    #expect(unsigned.stderr == "")
    #expect(unsigned.status == 0)
    try deployment.sign("plugins/libHealthy.so", with: "alice", namespace: "file")
    let refused = try deployment.plugboard(["run"])
    #expect(refused.status == 78)
    #expect(refused.stderrLines.first?.contains("the signature is for the namespace \"file\"") == true)
  }

  /// The allowed signers file decides whose plugins run: one others can
  /// write is refused as any file that brings trust is.
  @Test func anAllowedSignersFileOthersCanWriteIsRefused() throws {
    let (deployment, _) = try healthy()
    try deployment.sign("plugins/libHealthy.so", with: "alice")
    let file = deployment.folder + "/allowed_signers"
    #expect(chmod(file, 0o664) == 0)
    try refusal(
      deployment,
      "cannot have its signature checked: the allowed signers file \(file) (trust.allowedSigners) is writable by "
        + "its group (mode 0664, owner uid \(geteuid())); anyone who can write it can choose whose plugins "
        + "plugboard runs — remove the write permission: chmod go-w \(file)")
  }

  /// A missing allowed signers file says so, and how to fix it, whether
  /// or not the folder named for it exists: a folder that is not there
  /// is nothing to judge.
  @Test(arguments: ["allowed_signers.missing", "no-such-folder/allowed_signers"])
  func aMissingAllowedSignersFileSaysItDoesNotExist(_ name: String) throws {
    let deployment = try SignedDeployment()
    let plugin = try deployment.add(BuildProducts.library("Healthy"))
    try deployment.allow([("Healthy", try deployment.makeKey("alice"))])
    try deployment.sign("plugins/libHealthy.so", with: "alice")
    let trust = #""trust": { "allowedSigners": "\#(name)", "requireSignatures": true },"#
    try deployment.manifest(trust, [SignedDeployment.entry("Healthy", plugin)])
    try refusal(
      deployment,
      "cannot have its signature checked: the allowed signers file \(deployment.folder)/\(name) "
        + "(trust.allowedSigners) does not exist — create it, or correct trust.allowedSigners")
  }

  /// `list`, `check` and `explain` name who vouches for a signed plugin:
  /// the key's fingerprint, the allowed signers file and the line, with
  /// its principals, that let the key sign it.
  @Test func listCheckAndExplainShowWhoSignedThePlugin() throws {
    let (deployment, plugin) = try healthy()
    try deployment.sign("plugins/libHealthy.so", with: "alice")
    let file = deployment.folder + "/allowed_signers"
    let fingerprint = try deployment.keys.fingerprint("alice")
    let signed = "libHealthy.so signed by \(fingerprint) (\(file):1: Healthy)"
    let list = try deployment.plugboard(["list"])
    #expect(list.status == 0)
    let heading = try #require(list.stdoutLines.firstIndex { $0.hasPrefix("Healthy 0.0.1  ") })
    #expect(list.stdoutLines[heading + 1] == "  " + signed)
    let check = try deployment.plugboard(["check"])
    #expect(check.status == 0)
    #expect(check.stdoutLines.filter { $0.contains("signed by") } == ["plugin 'Healthy': " + signed])
    let explain = try deployment.plugboard(["explain", "Application"])
    #expect(explain.status == 0)
    #expect(explain.stdoutLines.filter { $0.contains("signed by") } == ["  plugin 'Healthy': " + signed])

    let expected: JSONValue = .object([
      JSONMember(key: "allowedSigners", value: .string(file)),
      JSONMember(key: "fingerprint", value: .string(fingerprint)),
      JSONMember(key: "library", value: .string(try #require(FilePath.canonical(plugin)))),
      JSONMember(key: "line", value: .number("1")),
      JSONMember(key: "plugin", value: .string("Healthy")),
      JSONMember(key: "principals", value: .string("Healthy")),
    ])
    let schemas = SchemaValidator(folder: BuildProducts.packageRoot + "/Docs/schemas")
    let listed = try JSONParser.parse(try deployment.plugboard(["list", "--json"]).stdout)
    #expect(try schemas.violations(of: listed, against: "list.schema.json") == [])
    #expect(first(listed["plugins"])?["signatures"] == .array([expected]))
    let checked = try JSONParser.parse(try deployment.plugboard(["check", "--json"]).stdout)
    #expect(try schemas.violations(of: checked, against: "check.schema.json") == [])
    #expect(first(checked["reports"])?["signatures"] == .array([expected]))
    let explained = try JSONParser.parse(
      try deployment.plugboard(["explain", "Application", "--json"]).stdout)
    #expect(try schemas.violations(of: explained, against: "explain.schema.json") == [])
    #expect(explained["signatures"] == .array([expected]))
  }

  /// The first element of an array.
  private func first(_ value: JSONValue?) -> JSONValue? {
    guard case .array(let elements)? = value else { return nil }
    return elements.first
  }

  /// A neighbour the plugin loads is shown under it, with the line that
  /// let its key sign the library's name.
  @Test func listShowsWhoSignedEachNeighbour() throws {
    let deployment = try SignedDeployment()
    let plugin = try deployment.add(BuildProducts.library("Auth"))
    try deployment.allow([("*", try deployment.makeKey("publisher"))])
    try deployment.signAll(with: "publisher")
    try deployment.manifest(SignedDeployment.requiring, [SignedDeployment.entry("Auth", plugin)])
    let list = try deployment.plugboard(["list"])
    let file = deployment.folder + "/allowed_signers"
    let fingerprint = try deployment.keys.fingerprint("publisher")
    let heading = try #require(list.stdoutLines.firstIndex { $0.hasPrefix("Auth ") })
    #expect(
      Array(list.stdoutLines[(heading + 1)...].prefix(2)) == [
        "  libAuth.so signed by \(fingerprint) (\(file):1: *)",
        "  libAppContracts.so signed by \(fingerprint) (\(file):1: *)",
      ])
  }
}
