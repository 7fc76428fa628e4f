import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardCLI
@testable import PlugboardEngine

/// The statuses scripts rely on (Docs/commands.md "Exit status"): `graph`
/// and `explain` fail as `check` does on a broken deployment, and `run`'s
/// own failures are told apart from its application's.
@Suite(.blocking) struct ExitStatusTests {
  /// The sample with a cycle (CyclicAPI's APIClient needs AuthService) and
  /// a plugin whose library does not exist.
  private func brokenDeployment() throws -> CheckedDeployment {
    let names = ["Keychain", "Auth", "CyclicAPI", "Login", "IssueList", "Shell"]
    return try CheckedDeployment(
      names.map { .built($0) } + [CheckedDeployment.Plugin(name: "Gone", path: "libGone.so")])
  }

  @Test func explainOnTheFirstMemberOfACycleShowsTheCycleAndFails() throws {
    let deployment = try brokenDeployment()
    let result = try Subprocess.plugboard(["explain", "AuthService", "--manifest", deployment.manifest])
    #expect(result.exited)
    #expect(result.status == 1)
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(
      lines.drop(while: { $0 != "Dependency tree:" }).prefix(5) == [
        "Dependency tree:",
        "  AuthService  [container]  Auth/AuthAssembly.swift:7 in plugin Auth",
        "  ├─ APIClient  [container]  CyclicAPI/CyclicAPIPlugin.swift:14 in plugin CyclicAPI",
        "  │  └─ AuthService  (✗ cycle back to it)",
        "  └─ SecureStore  [container]  Keychain/KeychainAssembly.swift:7 in plugin Keychain",
      ])
    let folder = deployment.folder.path
    let gone =
      "plugboard: locate: plugin 'Gone' (\(folder)/libGone.so) does not exist (plugins[6].path is relative "
      + "to the manifest's folder, \(folder))"
    #expect(
      result.stderrLines == [
        gone,
        "plugboard: explain: error: dependency cycle: AuthService → APIClient → AuthService",
        "plugboard: explain: the deployment has 2 errors; 'plugboard check' shows the whole report",
      ])
  }

  /// Not misuse: the type may be in the plugin that failed.
  @Test func explainOfATypeMissingWhileAPluginFailedIsAProblem() throws {
    let deployment = try brokenDeployment()
    let result = try Subprocess.plugboard(["explain", "WeatherService", "--manifest", deployment.manifest])
    #expect(result.exited)
    #expect(result.status == 1)
    #expect(result.stdout == "")
    #expect(
      result.stderrLines.last
        == "plugboard: explain: no type 'WeatherService' is registered in this deployment; the deployment "
        + "has 1 problem (above), and a plugin that failed to load may be the one registering it")
  }

  /// An application's 2 (its usage) and plugboard's misuse differ.
  @Test func runsOwnFailuresAreNotTheApplications() throws {
    let deployment = try brokenDeployment()
    let broken = try Subprocess.plugboard(["run", "--manifest", deployment.manifest])
    #expect(broken.exited && broken.status == ExitStatus.runBroken.rawValue && broken.status == 78)
    let misuse = try Subprocess.plugboard(["run", "--manifest", deployment.manifest, "--bogus"])
    #expect(misuse.exited && misuse.status == ExitStatus.runMisuse.rawValue && misuse.status == 64)
    // A start hook that failed (LifecycleTests) is neither of those.
    #expect(ExitStatus.runStartFailed.rawValue == 69)
    let listMisuse = try Subprocess.plugboard(["list", "--bogus"])
    #expect(listMisuse.status == 2)
  }

  @Test func helpNamesEachCommandsStatuses() throws {
    let run = try Subprocess.plugboard(["run", "--help"])
    #expect(run.stdout.hasSuffix(HelpText.runStatuses + "\n"))
    #expect(run.stdout.contains("78 the deployment is"))
    #expect(run.stdout.contains("69 a service's start hook failed or timed out"))
    #expect(run.stdout.contains("Stopped by SIGINT/SIGTERM: ends by\nthat signal"))
    let graph = try Subprocess.plugboard(["graph", "--help"])
    #expect(graph.stdout.hasSuffix(HelpText.reportingStatuses + "\n"))
    #expect(!graph.stdout.contains("'run'"))
  }
}
