import Foundation
import PlugboardKit
import Testing

@testable import PlugboardCLI
@testable import PlugboardEngine

/// A `Contributions<T>` dependency reaches every contribution to `T`: the
/// graph that `check`, `explain` and `graph` read has an edge to each, in
/// resolution order, drawn apart from plain dependencies in every format.
@Suite struct GraphContributionTests {
  protocol Command: Sendable {}
  struct Plain: Command {}
  struct Menu: Sendable {
    let commands: Contributions<any Command>
  }
  final class Tracer: Sendable {}

  private func deployment() throws -> Deployment {
    try InProcessDeployment.make { container in
      container.autoregister(Menu.self, initializer: Menu.init)
      container.contribute((any Command).self, name: "quit", order: 9) { _ in Plain() }.dependsOn()
      container.contribute((any Command).self, name: "help") { _ in Plain() }.dependsOn()
      container.contribute((any Command).self) { _ in Plain() }.dependsOn(Tracer.self)
      // A plain registration of the contract is no contribution.
      container.register((any Command).self) { _ in Plain() }.dependsOn()
    }
  }

  @Test func aContributionsDependencyHasAnEdgeToEachContributionInOrder() throws {
    let model = GraphModel(try deployment())
    let edges = model.edges.map { edge in
      "\(model.node(edge.from)?.label ?? edge.from) → \(model.node(edge.to)?.label ?? edge.to) (\(edge.kind.rawValue))"
    }
    let unnamed = try #require(model.nodes.first { $0.label.hasPrefix("Command contribution #") }?.label)
    #expect(
      edges == [
        #"Menu → Command contribution "help" (contribution)"#, "Menu → \(unnamed) (contribution)",
        #"Menu → Command contribution "quit" (contribution)"#, "\(unnamed) → Tracer (dependency)",
      ])
    let help = try #require(model.nodes.first { $0.label == #"Command contribution "help""# })
    #expect(help.name == "help")
    #expect(help.contribution?.extensionPoint == _typeName((any Command).self, qualified: true))
    #expect(help.contribution?.order == 0)
  }

  /// The missing Tracer is reported with the chain through the
  /// contribution that needs it.
  @Test func checkFollowsTheEdgeToAContribution() throws {
    let findings = DeploymentChecker(try deployment(), environment: [:]).check().findings
    let missing = try #require(findings.first { $0.kind == .missingDependency })
    #expect(missing.title.hasPrefix("Command contribution #"))
    #expect(missing.title.hasSuffix(" needs Tracer, which nothing registers"))
  }

  @Test func dotAndMermaidDrawContributionEdgesApart() throws {
    let model = GraphModel(try deployment())
    let edge = try #require(model.edges.first { $0.kind == .contribution })
    let dot = DOTRenderer.render(model).split(separator: "\n").map(String.init)
    #expect(
      dot.contains(
        ##"  \##(edge.from) -> \##(edge.to) [style=bold, color="#2f6fb0", fontcolor="#2f6fb0", label="contribution"];"##
      ))
    let mermaid = MermaidRenderer.render(model).split(separator: "\n").map(String.init)
    #expect(mermaid.contains("  \(edge.from) == contribution ==> \(edge.to)"))
    let json = String(decoding: try JSONEncoder().encode(model), as: UTF8.self)
    #expect(json.contains(#""kind":"contribution""#))
    #expect(!json.contains(#"\u0000"#))
  }
}
