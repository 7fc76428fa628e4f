import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// A deployment that requires signatures, reloaded (SIGHUP) after its
/// publisher shipped a changed build: re-signed with a key the allowed
/// signers file lists, it takes over with no operator step; signed with a
/// key the file does not list, the reload refuses it at vet and the
/// running deployment serves on. The plugin is LifecycleProbe, whose hooks
/// and application print on standard output (see ``ReloadTests``).
@Suite(.serialized, .blocking, .enabled(if: SSHKeygen.shouldRun, SSHKeygen.missing))
struct SignedReloadTests {
  /// LifecycleProbe copied into a signed deployment, alice's key allowed
  /// for it, signed by her and running.
  private struct Running {
    let deployment: SignedDeployment
    let plugin: String
    let process: GroupedProcess

    init() throws {
      deployment = try SignedDeployment()
      plugin = try deployment.add(BuildProducts.library("LifecycleProbe"))
      try deployment.allow([("LifecycleProbe", try deployment.makeKey("alice"))])
      try deployment.makeKey("mallory")
      try deployment.signAll(with: "alice")
      try deployment.manifest(SignedDeployment.requiring, [SignedDeployment.entry("LifecycleProbe", plugin)])
      let mode = try deployment.keys.write("mode", [])
      process = try GroupedProcess(
        ["run", "--manifest", deployment.folder + "/plugins.json", "--", "wait"],
        environment: ["LIFECYCLE_PROBE_FILE": mode])
      #expect(try process.waitForLine("ready"))
    }

    /// Replaces the plugin with a changed build of it (the same code with
    /// bytes after it: a file whose digest differs, as a rebuild's does),
    /// signed by `key`, as a publisher ships it: the library and its
    /// signature dropped in place.
    func shipChangedBuild(signedBy key: String) throws {
      var bytes = try deployment.keys.bytes("plugins/libLifecycleProbe.so")
      bytes += Array("a changed build".utf8)
      try deployment.keys.write("plugins/libLifecycleProbe.so.new", bytes)
      try deployment.sign("plugins/libLifecycleProbe.so.new", with: key)
      #expect(rename(plugin + ".new.sig", plugin + ".sig") == 0)
      #expect(rename(plugin + ".new", plugin) == 0)
    }

    func reload() throws -> String? {
      process.signal(SIGHUP)
      return try ReloadTests.outcome(of: process)
    }

    var stderrLines: [String] {
      process.stderrText.split(separator: "\n").map { (try? ReloadTests.masked(String($0))) ?? String($0) }
    }

    func stop() throws {
      process.signal(SIGTERM)
      #expect(try process.finish() == .killed(SIGTERM))
      #expect(process.groupIsGone)
    }
  }

  @Test func aChangedBuildReSignedByTheSameKeyTakesOverOnReload() throws {
    let running = try Running()
    try running.shipChangedBuild(signedBy: "alice")
    let outcome = try running.reload()
    #expect(
      outcome
        == "plugboard: run: reloaded: the new deployment took over after <time>; plugins rebuilt: LifecycleProbe"
    )
    #expect(try running.process.waitForLine(skipping: 1) { $0 == "ready" } != nil)
    try running.stop()
    #expect(running.stderrLines == [ReloadTests.reloading, outcome ?? ""])
  }

  @Test func aChangedBuildSignedByAKeyNotAllowedIsRefusedAndTheOldDeploymentServesOn() throws {
    let running = try Running()
    try running.shipChangedBuild(signedBy: "mallory")
    let outcome = try running.reload()
    #expect(outcome == ReloadTests.failed("the deployment is broken (exit status 78)"))
    try running.stop()
    #expect(running.process.stdoutLines == ReloadTests.started + ReloadTests.stopped)
    let file = running.deployment.folder + "/allowed_signers"
    let mallory = try running.deployment.keys.fingerprint("mallory")
    #expect(
      running.stderrLines == [
        ReloadTests.reloading,
        "plugboard: vet: plugin 'LifecycleProbe' (\(running.plugin)) is refused by its signature "
          + "\(running.plugin).sig: the signing key \(mallory) is not allowed to sign \"LifecycleProbe\" by "
          + "\(file) (signer: \(mallory) (not listed in \(file)); allowed signers: \(file)) — sign it with a key "
          + "\(file) lists for \"LifecycleProbe\", or list this key there with a principal pattern that matches "
          + "\"LifecycleProbe\" and namespaces=\"plugboard-plugin\"",
        "plugboard: the deployment has 1 problem; the application was not run",
        outcome ?? "",
      ])
  }
}
