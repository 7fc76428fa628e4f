import PlugboardKit
import Testing

/// What listings and checks read about contributions: which registration
/// is one, its name and order, how its key reads, and the edge a
/// `Contributions` dependency declares.
@Suite struct ContributionInfoTests {
  protocol Command: Sendable {}
  struct Plain: Command {}
  struct Menu: Sendable {
    let commands: Contributions<any Command>
  }

  @Test func aContributionsRegistrationTellsItsNameAndOrder() throws {
    let container = Container()
    container.register((any Command).self, name: "Mock") { _ in Plain() }
    container.contribute((any Command).self, name: "help", order: 10) { _ in Plain() }
    container.contribute((any Command).self) { _ in Plain() }
    let keys = container.registrations.map(\.key)
    #expect(keys.map(\.isContribution) == [false, true, true])
    #expect(keys.map(\.contributionName) == [nil, "help", nil])
    #expect(container.contribution(of: keys[0]) == nil)
    let help = try #require(container.contribution(of: keys[1]))
    #expect(help.contract == TypeIdentity((any Command).self))
    #expect((help.name, help.order) == ("help", 10))
    let unnamed = try #require(container.contribution(of: keys[2]))
    #expect((unnamed.name, unnamed.order) == (nil, 0))
    #expect(unnamed.sequence > help.sequence)
    // Made in another container: not one of this one's.
    #expect(Container().contribution(of: keys[1]) == nil)
  }

  /// Descriptions (chains, findings, listings) say a contribution is one,
  /// with the name its author gave it.
  @Test func aContributionsKeyReadsAsAContribution() throws {
    let container = Container()
    container.contribute((any Command).self, name: "say \"hi\"\n") { _ in Plain() }
    container.contribute((any Command).self) { _ in Plain() }
    let keys = container.registrations.map(\.key)
    #expect(keys[0].shortDescription == #"Command contribution "say \"hi\"\n""#)
    #expect(keys[0].description.hasSuffix(#".Command contribution "say \"hi\"\n""#))
    let sequence = try #require(container.contribution(of: keys[1])?.sequence)
    #expect(keys[1].shortDescription == "Command contribution #\(sequence)")
    #expect(!keys.contains { $0.description.contains("\u{0}") || $0.description.contains("u{0}") })
  }

  @Test func aContributionsDependencyDeclaresTheExtensionPoint() throws {
    let container = Container()
    container.autoregister(Menu.self, initializer: Menu.init)
    let info = try #require(container.registrations.first)
    let edge = try #require(info.optionalDependencies.first)
    #expect(edge.isExtensionPoint)
    #expect(edge.service == TypeIdentity((any Command).self))
    #expect(edge.shortDescription == "Command (every contribution)")
    #expect(try container.resolve(Menu.self).commands.isEmpty)
  }

  @Test func anExtensionPointKeepsItsLatestDeclaration() throws {
    let container = Container()
    #expect(container.extensionPoints.isEmpty)
    container.extensionPoint((any Command).self, cardinality: .exactlyOne)
    let line = #line + 2
    container.attributing(to: "App") {
      container.extensionPoint((any Command).self, cardinality: .atLeastOne)
    }
    container.extensionPoint(Plain.self, cardinality: .any)
    #expect(container.extensionPoints.map(\.cardinality) == [.atLeastOne, .any])
    let command = try #require(container.extensionPoints.first)
    #expect(command.contract == TypeIdentity((any Command).self))
    #expect(command.site == RegistrationSite(fileID: #fileID, line: line, plugin: "App"))
    #expect([0, 1, 2].map(Cardinality.exactlyOne.admits) == [false, true, false])
    #expect([0, 1, 2].map(Cardinality.atLeastOne.admits) == [false, true, true])
    #expect(Cardinality.any.admits(0))
  }
}
