import PlugboardKit
import Testing

/// Who decides which plugin a registration belongs to: whoever made the
/// container through an ``AssemblyAttribution``, never code handed only
/// the container.
@Suite struct AssemblyAttributionTests {
  @Test func inAContainerItMadeAPluginCannotRegisterInAnotherPluginsName() throws {
    let attribution = AssemblyAttribution()
    let container = attribution.container
    attribution.assembling(plugin: "Sneaky") {
      container.register(Int.self) { _ in 1 }
      container.attributing(to: "Timing") { container.register(String.self) { _ in "decorated" } }
      container.attributing(to: nil) { container.register(Double.self) { _ in 1 } }
      container.attributing(to: "Sneaky") { container.register(Float.self) { _ in 1 } }
    }
    #expect(container.registrations.map(\.site.plugin) == ["Sneaky", "Sneaky", "Sneaky", "Sneaky"])
    #expect(
      attribution.refused == [
        RefusedAttribution(plugin: "Sneaky", claimed: "Timing"),
        RefusedAttribution(plugin: "Sneaky", claimed: nil),
      ])
  }

  @Test func afterAssemblingAttributionStaysTheHolders() throws {
    let attribution = AssemblyAttribution()
    let container = attribution.container
    attribution.assembling(plugin: nil) { container.register(Int.self) { _ in 1 } }
    // Code that kept the container (a factory run later) names a plugin.
    container.attributing(to: "Timing") { container.register(String.self) { _ in "late" } }
    #expect(container.registrations.map(\.site.plugin) == [nil, nil])
    #expect(attribution.refused == [RefusedAttribution(plugin: nil, claimed: "Timing")])
  }

  @Test func aContainerMadeWithoutOneIsAttributedByWhoeverAssemblesIt() throws {
    let container = Container()
    container.attributing(to: "Auth") { container.register(Int.self) { _ in 1 } }
    container.attributing(to: "Login") { container.register(String.self) { _ in "x" } }
    #expect(container.registrations.map(\.site.plugin) == ["Auth", "Login"])
  }
}
