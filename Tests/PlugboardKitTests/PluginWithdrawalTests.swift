import PlugboardKit
import Testing

/// `removeRegistrations(attributedTo:)`: a plugin that failed part-way
/// leaves nothing behind, and what it had replaced serves again.
@Suite struct PluginWithdrawalTests {
  @Test func aWithdrawnPluginsReplacementsAreUndone() throws {
    let container = Container()
    container.attributing(to: "Core") {
      container.register(String.self) { _ in "core" }
      container.register(Int.self) { _ in 1 }
    }
    // Resolved once, so the replacement below is settled in a snapshot.
    #expect(try container.resolve(String.self) == "core")
    container.attributing(to: "Half") {
      container.register(String.self) { _ in "half" }
      container.register(Double.self) { _ in 0.5 }
    }
    #expect(try container.resolve(String.self) == "half")
    #expect(container.duplicateRegistrations.count == 1)

    container.removeRegistrations(attributedTo: "Half")
    #expect(try container.resolve(String.self) == "core")
    #expect(try container.resolveIfRegistered(Double.self) == nil)
    #expect(try container.resolve(Int.self) == 1)
    #expect(container.duplicateRegistrations.isEmpty)
    #expect(container.registrations.map(\.site.plugin) == ["Core", "Core"])
    #expect(container.withdrawnRegistrations.map(\.key.service.name) == ["Swift.String", "Swift.Double"])
  }

  @Test func withdrawingAPluginThatRegisteredNothingChangesNothing() throws {
    let container = Container()
    container.attributing(to: "Core") { container.register(Int.self) { _ in 7 } }
    container.removeRegistrations(attributedTo: "Absent")
    #expect(try container.resolve(Int.self) == 7)
    #expect(container.registrations.count == 1)
  }
}
