import Foundation
import PlugboardKit
import Testing

@testable import PlugboardEngine

/// `plugboard explain` of an extension point: no single registration is
/// chosen, and every contribution is listed in resolution order with its
/// tree, site and plugin, not as a candidate that was not chosen.
@Suite struct ExplainContributionTests {
  protocol Command: Sendable {}
  struct Plain: Command {}
  final class Tracer: Sendable {}

  private func report(_ assemble: (Container) -> Void) throws -> ExplanationReport {
    let deployment = try InProcessDeployment.make(plugin: "Tools", assemble)
    let checker = DeploymentChecker(deployment, environment: [:])
    return Explanation(checker: checker, typeName: _typeName((any Command).self, qualified: true), name: nil)
      .report(findings: [])
  }

  @Test func everyContributionIsListedInOrderWithItsSiteAndPlugin() throws {
    var lines: [Int] = []
    let report = try report { container in
      lines.append(#line + 1)
      container.contribute((any Command).self, name: "quit", order: 9) { _ in Plain() }.dependsOn(Tracer.self)
      lines.append(#line + 1)
      container.contribute((any Command).self, name: "help") { _ in Plain() }.dependsOn()
      container.register(Tracer.self) { _ in Tracer() }.dependsOn()
    }
    #expect(report.resolves)
    #expect(report.chosen == nil)
    #expect(report.notChosen.isEmpty)
    let file = #fileID
    #expect(
      Array(report.lines.drop { $0 != "Chosen:" }) == [
        "Chosen:",
        "  nothing: no plain registration; it is an extension point, served by its contributions",
        "",
        "Contributions (2), in resolution order:",
        "  Command contribution \"help\"  [graph]  \(file):\(lines[1]) in plugin Tools",
        "  Command contribution \"quit\"  [graph]  \(file):\(lines[0]) in plugin Tools",
        "  └─ Tracer  [graph]  \(file):\(lines[1] + 1) in plugin Tools",
        "",
        "Not chosen:",
        "  (no other candidates)",
      ])
    let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
    #expect(json.contains(#""contributions":[{"#))
    #expect(!json.contains(#"\u0000"#))
  }

  /// A contribution whose dependency nothing serves: the extension point
  /// does not resolve whole.
  @Test func aContributionMissingADependencyMakesItUnresolved() throws {
    let report = try report { container in
      container.contribute((any Command).self) { _ in Plain() }.dependsOn(Tracer.self)
    }
    #expect(!report.resolves)
    #expect(report.lines.contains { $0.hasSuffix("└─ Tracer  (✗ not registered)") })
  }
}
