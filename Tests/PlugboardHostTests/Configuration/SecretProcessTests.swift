import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// A process given a secret setting's value is non-dumpable: no
/// core file holds the secret, and no other process of the same user can
/// attach to it or read its memory. Seen from outside, the kernel then
/// makes root the owner of the files of its `/proc/<pid>` folder, which needs plugboard
/// to run as a user other than root (`nobody`, through `setpriv`): so the
/// test needs root, as CI has.
@Suite(.serialized, .blocking) struct SecretProcessTests {
  private static let nobody = OtherUser.uid

  /// The owners of the supervising parent's and of the supervised child's
  /// `/proc/<pid>/environ` while the application runs, with the plugin
  /// `Configured` and its settings, the secret `password` among them, when
  /// `secret`. The parent loads no plugin, so it cannot tell a secret from
  /// another setting, but its environment holds them all.
  private func owners(secret: Bool) throws -> (parent: uid_t, child: uid_t) {
    let folder = try TemporaryDirectory()
    #expect(chmod(folder.path, 0o755) == 0)
    let configured = [("Configured", BuildProducts.library("Configured"))]
    let manifest = try folder.writeManifest(
      (secret ? configured : []) + [("Healthy", BuildProducts.library("Healthy"))])
    #expect(chmod(manifest, 0o644) == 0)
    let environment =
      secret
      ? ["PLUGBOARD_CONFIG_CONFIGURED_REGION": "north", "PLUGBOARD_CONFIG_CONFIGURED_PASSWORD": "hunter2"]
      : [:]
    let process = try GroupedProcess(
      ["--reuid=\(Self.nobody)", "--regid=\(Self.nobody)", "--clear-groups", BuildProducts.plugboard]
        + ["run", "--manifest", manifest, "--", "wait"], environment: environment,
      executable: "/usr/bin/setpriv")
    #expect(try process.waitForLine("Healthy is running"), "\(process.stderrText)")
    let children = process.children
    #expect(children.count == 1)
    var status = stat()
    let child = try #require(
      children.first.flatMap { stat("/proc/\($0)/environ", &status) == 0 ? status.st_uid : nil })
    let parent = try #require(stat("/proc/\(process.pid)/environ", &status) == 0 ? status.st_uid : nil)
    process.signal(SIGTERM)
    _ = try process.finish()
    return (parent, child)
  }

  /// Why `nobody` cannot run this build's plugboard on the test's
  /// plugins, or nil.
  static let unreachable = OtherUser.unreachable(
    [BuildProducts.plugboard, BuildProducts.host, NSTemporaryDirectory()]
      + ["Configured", "Healthy", "PlugboardKit"].map(BuildProducts.library))

  @Test(
    .enabled(if: geteuid() == 0, "needs root to run plugboard as another user (nobody)"),
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "setpriv is not installed"),
    .disabled(if: unreachable != nil, Comment(rawValue: unreachable ?? ""))
  )
  func aProcessHoldingASecretIsNotDumpable() throws {
    let plain = try owners(secret: false)
    #expect(plain.parent == Self.nobody && plain.child == Self.nobody)
    let secret = try owners(secret: true)
    #expect(secret.child == 0)
    #expect(secret.parent == 0)
  }
}
