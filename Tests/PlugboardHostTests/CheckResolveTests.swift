import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// `plugboard check --resolve` through the built binary: a factory that
/// resolves what it does not declare, found only by running it; the same
/// finding in `--json`; and a factory that crashes the supervised child,
/// named with its plugin and the registration being made.
@Suite(.blocking) struct CheckResolveTests {
  /// `plugboard check` with `options` on a deployment of one built
  /// plugin, copied beside its manifest; the manifest's path, for the
  /// report's heading.
  private func check(_ product: String, _ options: [String]) throws -> (ProcessResult, manifest: String) {
    let folder = try TemporaryDirectory()
    try FileManager.default.copyItem(
      atPath: BuildProducts.library(product), toPath: folder.path + "/lib\(product).so")
    let manifest = try folder.writeManifest([(product, "lib\(product).so")])
    let result = try Subprocess.plugboard(["check"] + options + ["--manifest", manifest])
    #expect(result.exited)
    return (result, manifest)
  }

  private static let site = "UndeclaredNeed/UndeclaredNeedPlugin.swift"

  /// What `check` alone says of UndeclaredNeed: a closure that declares
  /// nothing, only worth a warning.
  private static let undeclaredWarning = """
    warning: Greeter does not declare its dependencies; check cannot see past it

    What went wrong:
      Its factory, registered at \(site):33 in plugin UndeclaredNeed, is a closure that declares nothing, so whatever it resolves is not checked.

    Action:
      Declare what the factory resolves with .dependsOn(...) (and .optionallyDependsOn(...) for what it resolves if registered), or register it with autoregister(Greeter.self, initializer: ...); a factory that resolves nothing can use autoregister too.
    """

  /// `check` alone cannot see what the closure resolves: the deployment
  /// passes, with the warning. Resolving is opt-in.
  @Test func withoutResolveTheUndeclaredNeedIsOnlyAWarning() throws {
    let (result, manifest) = try check("UndeclaredNeed", [])
    #expect(result.status == 0)
    #expect(
      result.stdout == """
        Checking \(manifest): 1 plugin (1 loaded), 2 registrations

        \(Self.undeclaredWarning)

        check: 0 errors, 1 warning; the deployment is healthy

        """)
  }

  @Test func aFactoryThatResolvesAnUnregisteredTypeIsReportedWithItsChainAndPlugin() throws {
    let (result, manifest) = try check("UndeclaredNeed", ["--resolve"])
    #expect(result.status == 1)
    #expect(result.stderr == "")
    #expect(
      result.stdout == """
        Checking \(manifest): 1 plugin (1 loaded), 2 registrations

        error: resolving Greeter fails: No registration for UndeclaredNeed.Clock.

        What went wrong:
          Greeter (registered at \(Self.site):33 in plugin UndeclaredNeed) was resolved in a scope of its own, and the resolution failed.

        Chain:
          Greeter  (registered at \(Self.site):33 in plugin UndeclaredNeed)
          → Clock

        Action:
          Register Clock in an assembly that is loaded, for example container.register((any Clock).self) { r in ... }.

        error: resolving Application fails: No registration for UndeclaredNeed.Clock.

        What went wrong:
          Application (registered at \(Self.site):34 in plugin UndeclaredNeed) was resolved in a scope of its own, and the resolution failed.

        Chain:
          Application  (registered at \(Self.site):34 in plugin UndeclaredNeed)
          → Greeter  (registered at \(Self.site):33 in plugin UndeclaredNeed)
          → Clock

        Action:
          Register Clock in an assembly that is loaded, for example container.register((any Clock).self) { r in ... }.

        \(Self.undeclaredWarning)

        check: 2 errors, 1 warning; the deployment is broken

        """)
  }

  @Test func theFailureIsAFindingInJSON() throws {
    let (result, _) = try check("UndeclaredNeed", ["--resolve", "--json"])
    #expect(result.status == 1)
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(document["healthy"] as? Bool == false)
    let reports = try #require(document["reports"] as? [[String: Any]])
    let findings = try #require(reports.first?["findings"] as? [[String: Any]])
    let resolved = findings.filter { $0["kind"] as? String == "resolutionFailed" }
    #expect(resolved.map { $0["severity"] as? String } == ["error", "error"])
    #expect(
      resolved.map { $0["title"] as? String } == [
        "resolving Greeter fails: No registration for UndeclaredNeed.Clock.",
        "resolving Application fails: No registration for UndeclaredNeed.Clock.",
      ])
    let chain = try #require(resolved.last?["chain"] as? [[String: Any]])
    #expect(
      chain.map { $0["service"] as? String } == [
        "PlugboardKit.Application", "UndeclaredNeed.Greeter", "UndeclaredNeed.Clock",
      ])
    #expect(chain.map { $0["plugin"] as? String } == ["UndeclaredNeed", "UndeclaredNeed", nil])
    #expect(chain.map { $0["line"] as? Int } == [34, 33, nil])
    #expect(
      resolved.first?["explanation"] as? [String] == [
        "Greeter (registered at \(Self.site):33 in plugin UndeclaredNeed) was resolved in a scope of its own, "
          + "and the resolution failed."
      ])
  }

  /// As `run` names a factory that crashes while the `Application` is
  /// resolved: the plugin, the registration being made and its chain; no
  /// report, and status 1, as for any error `check` finds.
  @Test func aFactoryThatCrashesIsNamedWithItsPluginAndRegistration() throws {
    let (result, _) = try check("TrappingFactory", ["--resolve"])
    #expect(result.status == 1)
    #expect(result.stdout == "")
    let (site, trap) = (SupervisionTests.trappingFactorySite, SupervisionTests.trappingFactoryTrap)
    #expect(
      result.stderrLines.filter { $0.hasPrefix("plugboard: ") } == [
        "plugboard: resolve registrations: plugin 'TrappingFactory' crashed with \(trap) while making "
          + "TrappingFactory.Database (registered at \(site):24 in plugin TrappingFactory)",
        "plugboard: check: fix the factory of TrappingFactory.Database; the check stopped there and printed "
          + "no report",
      ])
  }

  /// A factory that never returns is stopped at the stage timeout, as a
  /// stage of the plugin whose registration was being resolved: the
  /// plugin is named, not set aside (it loaded fine), and no chain came,
  /// since only a crash writes one.
  @Test func aHangingFactoryIsStoppedAndNamedWithItsPlugin() {
    var watch = StageWatch(timeout: .seconds(10))
    watch.apply(.stage(.resolveRegistrations, plugin: "Slow", file: "/lib/libSlow.so"))
    #expect(watch.hasDeadline)
    let report = CrashReport(ending: .hung(.seconds(10)), watch: watch)
    #expect(report.blame(stage: .resolveRegistrations, stagePlugin: "Slow") == nil)
    #expect(
      report.stageLines(stage: .resolveRegistrations, command: "check") == [
        "plugboard: resolve registrations: plugin 'Slow' was stopped after 10 s while one of its registrations "
          + "was being resolved",
        "plugboard: check: fix the failing factory; the check stopped there and printed no report",
      ])
  }
}
