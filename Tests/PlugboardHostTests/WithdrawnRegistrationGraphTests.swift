import PlugboardAnalysis
import PlugboardKit
import Testing

@testable import PlugboardEngine

/// A failed optional plugin's registrations are gone from the container
/// but stay in the dependency graph as unavailable nodes, for every
/// caller: `check`, which names the failed plugins, and the start order
/// of `run`, which names none.
@Suite struct WithdrawnRegistrationGraphTests {
  @Test func withdrawnRegistrationsAreUnavailableWhoeverBuildsTheGraph() {
    let container = Container()
    container.attributing(to: "Core") { container.register(String.self) { _ in "core" }.dependsOn() }
    container.attributing(to: "Half") {
      container.register(String.self) { _ in "half" }.dependsOn()
      container.register(Int.self) { _ in 1 }.dependsOn(String.self)
    }
    container.removeRegistrations(attributedTo: "Half")

    for failed in [Set<String>(), ["Half"]] {
      let graph = DependencyGraph(container: container, failedPlugins: failed)
      #expect(
        graph.nodes.map { "\($0.plugin ?? "-") \($0.key.shortDescription) \($0.isAvailable)" }
          == ["Core String true", "Half String false", "Half Int false"])
      let served = graph.provider(of: ServiceKey(String.self)).map { graph.nodes[$0].plugin }
      #expect(served == "Core")
      #expect(graph.unavailableProvider(of: ServiceKey(Int.self)).map { graph.nodes[$0].plugin } == "Half")
    }
  }
}
