import PlugboardKit
import Testing

/// The public inspection API a whole-graph analysis reads a container
/// through: what serves each key in a profile, what was replaced, what the
/// profile leaves out, and each serving registration announced with its
/// static type.
@Suite struct InspectionTests {
  private static func container() -> Container {
    let container = Container()
    container.register(String.self) { _ in "live" }.inProfiles("live")
    container.register(String.self) { _ in "mock" }.inProfiles("mock")
    container.register(Int.self) { _ in 1 }
    container.register(Int.self) { _ in 2 }
    container.register(Double.self, name: "rate") { _ in 0.5 }
    container.register(Character.self) { (_: Resolver, c: Character) in c }
    container.contribute(String.self, name: "extra") { _ in "contributed" }
    return container
  }

  @Test func anInventoryTakesTheProfileItIsAskedForAndLeavesTheContainersAlone() {
    let container = Self.container()
    container.activeProfile = "live"
    let mock = container.inventory(asIf: "mock")
    #expect(mock.profile == "mock")
    #expect(
      mock.serving.filter { $0.key.role == .service }.map(\.key.shortDescription)
        == ["String", "Int", "Double named \"rate\"", "Character (Character)"])
    #expect(mock.serving.first?.site.line == 12)
    #expect(mock.inactive.map(\.site.line) == [11])
    #expect(mock.duplicates.map { [$0.winner.line, $0.replaced.line] } == [[14, 13]])
    #expect(container.activeProfile == "live")
    #expect(container.inventory(asIf: nil).inactive.map(\.site.line) == [11, 12])
  }

  @Test func anInventoryNamesTheSelectionsAndAChildSeesItsAncestors() {
    let parent = Self.container()
    parent.select(name: "rate", for: TypeIdentity(Double.self), reason: "chosen by profile 'mock'")
    let child = Container(parent: parent)
    child.register(Float.self) { _ in 1 }
    let inventories = child.inventories(asIf: "mock")
    #expect(inventories.count == 2)
    #expect(inventories[0].serving.map(\.key.shortDescription) == ["Float"])
    #expect(inventories[0].selections.isEmpty)
    #expect(inventories[1].selections.map(\.name) == ["rate"])
    let suggestions = Suggestion.candidates(for: ServiceKey(Double.self), in: inventories)
    #expect(suggestions.map(\.key.shortDescription) == ["Double named \"rate\""])
  }

  @Test func announcingTellsABehaviorOfEachServingServiceWithItsType() throws {
    let container = Self.container()
    let seen = Recorder()
    container.announceRegistrations(asIf: "mock", to: seen)
    #expect(seen.services == ["String", "Int", "Double", "Character"])
    #expect(seen.lines == [12, 14, 15, 16])
  }
}

/// Records each announced registration's service type and line.
private final class Recorder: Behavior {
  var services: [String] = []
  var lines: [Int] = []

  func container<Type, Service>(
    _ container: Container, didRegisterType type: Type.Type, toService entry: ServiceEntry<Service>,
    withName name: String?
  ) {
    services.append("\(Service.self)")
    lines.append(entry.site.line)
  }
}
