import PlugboardKit
import Testing

@testable import PlugboardEngine

/// A plugin that fails after contributing has its registrations withdrawn
/// (as an optional plugin's are): `check` names each contribution the
/// extension point lost with it.
@Suite struct FailedContributorCheckTests {
  protocol Command: Sendable {}
  struct Plain: Command {}

  @Test func aWithdrawnContributionIsAWarning() throws {
    let deployment = try InProcessDeployment.make(plugin: "Core") { container in
      container.contribute((any Command).self, name: "help") { _ in Plain() }.dependsOn()
    }
    let line = #line + 2
    deployment.container.attributing(to: "Debug") {
      deployment.container.contribute((any Command).self, name: "trace") { _ in Plain() }.dependsOn()
    }
    deployment.container.removeRegistrations(attributedTo: "Debug")
    let findings = DeploymentChecker(deployment, environment: [:]).check().findings
    let missing = findings.filter { $0.kind == .contributionMissing }
    #expect(missing.map(\.severity) == [.warning])
    #expect(
      missing.map(\.title) == [
        #"Command contribution "trace" is missing from its extension point: plugin 'Debug' failed"#
      ])
    #expect(
      missing.first?.explanation.first
        == "It is contributed at \(#fileID):\(line) in plugin Debug; the plugin failed after making it, so it is withdrawn."
    )
  }

  /// An optional plugin that failed after contributing: its warning says
  /// which contributions its extension points lose, not that nothing
  /// depends on it.
  @Test func aFailedOptionalContributorSaysWhatItsExtensionPointsLose() throws {
    var deployment = try InProcessDeployment.make(plugin: "Core") { container in
      container.contribute((any Command).self, name: "help") { _ in Plain() }.dependsOn()
    }
    deployment.container.attributing(to: "Debug") {
      deployment.container.contribute((any Command).self, name: "trace") { _ in Plain() }.dependsOn()
    }
    deployment.container.removeRegistrations(attributedTo: "Debug")
    var entry = PluginEntry(index: 0, name: "Debug", path: "/plugins/libDebug.so")
    entry.optional = true
    let problem = DeploymentProblem(
      stage: .assemble, plugin: "Debug", file: entry.path, message: "plugin 'Debug': assemble failed")
    deployment = Deployment(
      manifest: deployment.manifest, outcomes: [.failed(entry, problem)], container: deployment.container,
      progress: deployment.progress, settings: deployment.settings)
    let findings = DeploymentChecker(deployment, environment: [:]).check().findings
    let optional = try #require(findings.first { $0.kind == .optionalPluginFailed })
    #expect(
      optional.explanation == [
        "assemble: plugin 'Debug': assemble failed",
        #"Nothing loaded asks for what it registers by type, but its extension points lose its contributions: Command contribution "trace"."#,
      ])
  }
}
