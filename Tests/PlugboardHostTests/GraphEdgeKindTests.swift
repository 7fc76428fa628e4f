import Foundation
import PlugboardKit
import Testing

@testable import PlugboardCLI
@testable import PlugboardEngine

/// `plugboard graph` tells a forwarded type's edge and the edges followed
/// after construction (`Lazy`, `Provider`, `initCompleted`) from ordinary
/// dependencies, in every format: they are why a cycle is or is not one.
@Suite struct GraphEdgeKindTests {
  final class Front {}
  final class Back {}
  final class Audit {}
  final class Clock {}
  protocol Starter {}
  final class Engine: Starter {}

  /// The graph of a container assembled in the test process, as the
  /// command builds it: the model reads only declarations.
  private func model() throws -> GraphModel {
    GraphModel(
      try InProcessDeployment.make { container in
        container.register(Front.self) { _ in Front() }.dependsOn(Back.self, Starter.self)
        container.register(Back.self) { _ in Back() }.dependsOn(Lazy<Front>.self, Provider<Audit>.self)
          .initCompleted(resolving: Clock.self) { r, _ in _ = try r.resolve(Clock.self) as Clock }
        container.register(Audit.self) { _ in Audit() }.dependsOn()
        container.register(Clock.self) { _ in Clock() }.dependsOn()
        container.register(Engine.self) { _ in Engine() }.dependsOn().implements(Starter.self)
      })
  }

  /// `Front → Back` (kind) for every edge, by label.
  private func edges(of model: GraphModel) -> [String] {
    model.edges.map { edge in
      let from = model.node(edge.from)?.label ?? edge.from
      let to = model.node(edge.to)?.label ?? edge.to
      return "\(from) → \(to) (\(edge.kind.rawValue))"
    }.sorted()
  }

  @Test func eachEdgeCarriesHowItIsReached() throws {
    #expect(
      edges(of: try model()) == [
        "Back → Audit (provider)", "Back → Clock (afterInit)", "Back → Front (lazy)",
        "Front → Back (dependency)", "Front → Starter (dependency)", "Starter → Engine (forwarded)",
      ])
  }

  /// A lazy back edge closes no cycle, so nothing is drawn red.
  @Test func aLazyBackEdgeIsNotACycle() throws {
    #expect(try model().edges.allSatisfy { !$0.cycle })
  }

  @Test func dotDrawsForwardedBoldAndDeferredDotted() throws {
    let model = try model()
    let dot = DOTRenderer.render(model).split(separator: "\n").map(String.init)
    func line(_ from: String, _ to: String) -> String? {
      let edge = model.edges.first { model.node($0.from)?.label == from && model.node($0.to)?.label == to }
      return edge.flatMap { edge in dot.first { $0.hasPrefix("  \(edge.from) -> \(edge.to)") } }
    }
    #expect(
      line("Starter", "Engine")?.hasSuffix(#"[style=bold, arrowhead=empty, label="forwards"];"#) == true)
    #expect(line("Back", "Front")?.hasSuffix(#"[style=dotted, label="lazy"];"#) == true)
    #expect(line("Back", "Audit")?.hasSuffix(#"[style=dotted, label="provider"];"#) == true)
    #expect(line("Back", "Clock")?.hasSuffix(#"[style=dotted, label="after init"];"#) == true)
    #expect(line("Front", "Back")?.contains("[") == false)
  }

  @Test func mermaidLabelsForwardedAndDeferredEdges() throws {
    let model = try model()
    let mermaid = MermaidRenderer.render(model).split(separator: "\n").map(String.init)
    let arrows = model.edges.map { edge -> String in
      let line = mermaid.first { $0.hasPrefix("  \(edge.from) ") && $0.hasSuffix(" \(edge.to)") } ?? ""
      let label = "\(model.node(edge.from)?.label ?? "?") → \(model.node(edge.to)?.label ?? "?")"
      return "\(label): " + line.dropFirst(2 + edge.from.count + 1).dropLast(edge.to.count + 1)
    }
    #expect(
      arrows.sorted() == [
        "Back → Audit: -. provider .->", "Back → Clock: -. after init .->", "Back → Front: -. lazy .->",
        "Front → Back: -->", "Front → Starter: -->", "Starter → Engine: == forwards ==>",
      ])
  }

  /// The JSON document carries the kind (checked against graph.schema.json
  /// by the JSON document tests).
  @Test func jsonCarriesTheKind() throws {
    let data = try JSONEncoder().encode(try model().edges)
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.contains(#""kind":"forwarded""#))
    #expect(text.contains(#""kind":"afterInit""#))
  }
}
