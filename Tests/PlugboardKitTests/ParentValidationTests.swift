import PlugboardAnalysis
import PlugboardKit
import Testing

/// A child container resolves what its parent registers, so `validate()`
/// reads the parent's registrations as part of the graph: a dependency
/// the parent serves is no missing one, and what the parent's registration
/// needs in turn is checked along the chain. The same for an assembler
/// made with a parent assembler (the feature-assembler layout) and for the
/// child `withOverrides` makes.
@Suite struct ParentValidationTests {
  final class Transport: Sendable {}
  final class Client: Sendable {}
  final class Feature: Sendable {}
  final class Session: Sendable {}

  /// The parent registers `Transport`; the child's `Client` needs it.
  private func family() -> (parent: Container, child: Container) {
    let parent = Container()
    parent.register(Transport.self, file: "App/Transport.swift", line: 2) { _ in Transport() }.dependsOn()
    let child = Container(parent: parent)
    child.register(Client.self, file: "Feature/Client.swift", line: 5) { _ in Client() }
      .dependsOn(Transport.self)
    return (parent, child)
  }

  @Test func aDependencyTheParentServesIsNotMissing() throws {
    let (parent, child) = family()
    try child.validate()
    withExtendedLifetime(parent) {}
  }

  @Test func whatTheParentsRegistrationNeedsIsCheckedAlongTheChain() throws {
    let parent = Container()
    parent.register(Transport.self, file: "App/Transport.swift", line: 2) { _ in Transport() }
      .dependsOn(Session.self)
    let child = Container(parent: parent)
    child.register(Client.self, file: "Feature/Client.swift", line: 5) { _ in Client() }
      .dependsOn(Transport.self)
    let error = try #require(throws: ValidationError.self) { try child.validate() }
    let finding = try #require(error.errors.first)
    #expect(error.errors.count == 1)
    #expect(finding.title == "Transport needs Session, which nothing registers")
    #expect(
      finding.chain.map(\.text) == [
        "Client  (registered at Feature/Client.swift:5)",
        "Transport  (registered at App/Transport.swift:2  in the parent container)",
        "Session  (✗ not registered)",
      ])
  }

  @Test func anAssemblerWithAParentAssemblerValidatesAgainstIt() throws {
    struct App: Assembly {
      func assemble(container: Container) {
        container.register(Transport.self) { _ in Transport() }.dependsOn()
      }
    }
    struct FeatureAssembly: Assembly {
      func assemble(container: Container) {
        container.register(Feature.self) { _ in Feature() }.dependsOn(Transport.self)
      }
    }
    let app = try Assembler([App()])
    let feature = try Assembler([FeatureAssembly()], parent: app)
    try feature.validate()
  }

  @Test func theChildOfWithOverridesValidatesAgainstTheContainer() throws {
    let (parent, child) = family()
    try child.withOverrides { overrides in
      overrides.register(Feature.self) { _ in Feature() }.dependsOn(Client.self, Transport.self)
      try overrides.validate()
    }
    withExtendedLifetime(parent) {}
  }
}
