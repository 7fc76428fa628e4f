import PlugboardAnalysis
import PlugboardKit
import Testing

/// A key's role says what kind of registration it stores, and its name
/// stays the one its author wrote: a decorator, a contribution and a
/// service of one type may share a name and stay three registrations,
/// and no name a user writes makes a service into anything else.
@Suite struct KeyRoleTests {
  protocol Client: Sendable { var label: String { get } }
  struct Real: Client { let label: String }
  struct Wrapped: Client {
    let inner: any Client
    var label: String { "wrapped(\(inner.label))" }
  }

  @Test func decoratorsAndContributionsKeepTheNamesTheirAuthorsWrote() throws {
    let container = Container()
    container.register((any Client).self) { _ in Real(label: "real") }
    container.decorate((any Client).self, name: "timing") { _, inner in Wrapped(inner: inner) }
    container.contribute((any Client).self, name: "help") { _ in Real(label: "help") }
    let keys = container.registrations.map(\.key)
    let decorator = try #require(keys.first { $0.isDecorator })
    let contribution = try #require(keys.first { $0.isContribution })
    #expect(decorator.name == "timing")
    #expect(decorator.role.kind == .decorator)
    #expect(contribution.name == "help")
    #expect(contribution.role.kind == .contribution)
    #expect(keys.filter { $0.role == .service }.map(\.name) == [nil])
    #expect(decorator.shortDescription == #"Client decorator "timing""#)
    #expect(contribution.shortDescription == #"Client contribution "help""#)
  }

  @Test func aServiceSharingANameWithADecoratorAndAContributionIsItsOwnRegistration() throws {
    let container = Container()
    container.register((any Client).self, name: "help") { _ in Real(label: "service") }
    container.contribute((any Client).self, name: "help") { _ in Real(label: "contribution") }
    container.register((any Client).self, name: "timing") { _, label in Real(label: label) }
    container.decorate((any Client).self, target: "help", name: "timing") { _, inner in Wrapped(inner: inner)
    }
    #expect(container.registrations.count == 4)
    #expect(container.duplicateRegistrations.isEmpty)
    #expect(try container.resolve((any Client).self, name: "help").label == "wrapped(service)")
    #expect(try container.resolve((any Client).self, name: "timing", arguments: "a").label == "a")
    #expect(try container.resolveAll((any Client).self).map(\.label) == ["contribution"])
  }

  @Test func unnamedDecoratorsAndContributionsAnswerNoRequest() throws {
    let container = Container()
    container.contribute((any Client).self) { _ in Real(label: "contribution") }
    container.decorate((any Client).self) { _, inner in Wrapped(inner: inner) }
    #expect(throws: ResolutionError.self) { try container.resolve((any Client).self) }
    #expect(try container.resolveIfRegistered((any Client).self) == nil)
    // A decorator of the unnamed service wraps services, not contributions.
    #expect(try container.resolveAll((any Client).self).map(\.label) == ["contribution"])
    container.register((any Client).self) { _ in Real(label: "real") }
    #expect(try container.resolve((any Client).self).label == "wrapped(real)")
  }

  @Test func anAsyncDecoratorAndContributionAreFoundByTheirRole() async throws {
    let container = Container()
    container.register((any Client).self, name: "db") { _ async in Real(label: "db") }
    container.decorate((any Client).self, target: "db", name: "warmed") { _, inner async in
      Wrapped(inner: inner)
    }
    container.contribute((any Client).self, name: "db") { _ async in Real(label: "contribution") }
    let resolver = container.asyncResolver
    #expect(try await resolver.resolve((any Client).self, name: "db").label == "wrapped(db)")
    #expect(try await resolver.resolveAll((any Client).self).map(\.label) == ["contribution"])
  }

  /// Names are only names: one spelt like a storage name of another kind
  /// (a NUL, then "decorator #1") is a service's, listed and resolved as
  /// such.
  @Test func noNameMakesAServiceIntoADecoratorOrAContribution() throws {
    let container = Container()
    for name in ["\u{0}decorator #1: t", "\u{0}contribution #2: help", "\u{0}contributions"] {
      container.register((any Client).self, name: name) { _ in Real(label: name) }
    }
    let keys = container.registrations.map(\.key)
    #expect(keys.allSatisfy { $0.role == .service && !$0.isDecorator && !$0.isContribution })
    #expect(keys.allSatisfy { !$0.isExtensionPoint })
    #expect(keys[0].shortDescription == #"Client named "\u{0}decorator #1: t""#)
    #expect(
      try container.resolve((any Client).self, name: "\u{0}contribution #2: help").label.hasSuffix("help"))
    #expect(try container.resolveAll((any Client).self).isEmpty)
    #expect(container.check().findings.map(\.title).allSatisfy { $0.hasPrefix("Client named ") })
  }
}
