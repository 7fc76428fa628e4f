import PlugboardKit
import Synchronization
import Testing

/// `decorate` wraps the instance the winning registration of a key makes,
/// whichever came first, in a defined order, keeping the target's scope.
@Suite struct DecoratorTests {
  protocol Client: Sendable { var trace: String { get } }
  final class Real: Client {
    let name: String
    init(_ name: String = "real") { self.name = name }
    var trace: String { name }
  }
  final class Wrapped: Client {
    let label: String
    let inner: any Client
    init(_ label: String, _ inner: any Client) {
      self.label = label
      self.inner = inner
    }
    var trace: String { "\(label)(\(inner.trace))" }
  }
  struct Clock: Sendable { let now = "t0" }

  @Test(arguments: [true, false])
  func wrapsTheWinningRegistrationWhateverTheOrder(decoratorFirst: Bool) throws {
    let container = Container()
    func decorate() {
      container.decorate((any Client).self, name: "timing") { _, inner in Wrapped("timed", inner) }
    }
    if decoratorFirst { decorate() }
    container.register((any Client).self) { _ in Real("first") }
    container.register((any Client).self) { _ in Real("second") }
    if !decoratorFirst { decorate() }
    #expect(try container.resolve((any Client).self).trace == "timed(second)")
  }

  @Test func decoratorsApplyByOrderThenRegistrationOrder() throws {
    let container = Container()
    container.register((any Client).self) { _ in Real() }
    container.decorate((any Client).self, name: "outer", order: 10) { _, inner in Wrapped("outer", inner) }
    container.decorate((any Client).self, name: "b") { _, inner in Wrapped("b", inner) }
    container.decorate((any Client).self, name: "c") { _, inner in Wrapped("c", inner) }
    container.decorate((any Client).self, name: "inner", order: -1) { _, inner in Wrapped("inner", inner) }
    #expect(try container.resolve((any Client).self).trace == "outer(c(b(inner(real))))")
    let names = container.decorators(of: TypeIdentity((any Client).self)).map(\.name)
    #expect(names == ["inner", "b", "c", "outer"])
  }

  @Test func theDecoratedInstanceKeepsTheTargetsScope() throws {
    let container = Container()
    let made = Atomic(0)
    container.register((any Client).self) { _ in
      made.add(1, ordering: .relaxed)
      return Real()
    }
    .inObjectScope(.container)
    container.decorate((any Client).self) { _, inner in Wrapped("w", inner) }
    let first = try container.resolve((any Client).self)
    let second = try container.resolve((any Client).self)
    #expect(first as AnyObject === second as AnyObject)
    #expect(first.trace == "w(real)")
    #expect(made.load(ordering: .relaxed) == 1)

    let transient = Container()
    transient.register((any Client).self) { _ in Real() }.inObjectScope(.transient)
    transient.decorate((any Client).self) { _, inner in Wrapped("w", inner) }
    let a = try transient.resolve((any Client).self)
    let b = try transient.resolve((any Client).self)
    #expect(a as AnyObject !== b as AnyObject)
    #expect(b.trace == "w(real)")
  }

  @Test func aDecoratorResolvesItsOwnDependencies() throws {
    let container = Container()
    container.register(Clock.self) { _ in Clock() }
    container.register((any Client).self) { _ in Real() }
    container.decorate((any Client).self) { r, inner in Wrapped(try r.resolve(Clock.self).now, inner) }
      .dependsOn(Clock.self)
    #expect(try container.resolve((any Client).self).trace == "t0(real)")
  }

  @Test func aNamedTargetIsDecoratedAloneAndArgumentsToo() throws {
    let container = Container()
    container.register((any Client).self) { _ in Real() }
    container.register((any Client).self, name: "mock") { _ in Real("mock") }
    container.register((any Client).self, name: "mock") { (_, id: String) in Real("mock-\(id)") }
    container.decorate((any Client).self, target: "mock") { _, inner in Wrapped("w", inner) }
    #expect(try container.resolve((any Client).self).trace == "real")
    #expect(try container.resolve((any Client).self, name: "mock").trace == "w(mock)")
    #expect(try container.resolve((any Client).self, name: "mock", argument: "7").trace == "w(mock-7)")
  }

  @Test func aDecoratorInAnotherProfileOrExcludedDoesNotApply() throws {
    let container = Container()
    container.register((any Client).self) { _ in Real() }
    container.decorate((any Client).self, name: "debug") { _, inner in Wrapped("debug", inner) }
      .inProfiles("debug")
    container.decorate((any Client).self, name: "timing") { _, inner in Wrapped("timed", inner) }
    #expect(try container.resolve((any Client).self).trace == "timed(real)")
    container.activeProfile = "debug"
    #expect(try container.resolve((any Client).self).trace == "timed(debug(real))")
    let timing = try #require(container.registrations.first { $0.key.decoratorName == "timing" })
    #expect(container.excludeDecorators([timing.key: "excluded by the test"]) == [timing.key])
    #expect(try container.resolve((any Client).self).trace == "debug(real)")
    let excluded = try #require(container.inactiveRegistrations.first { $0.key == timing.key })
    #expect(excluded.exclusion == "excluded by the test")
  }

  @Test func aDecoratorThatFailsNamesItsChain() throws {
    struct Refused: Error {}
    let container = Container()
    container.register((any Client).self) { _ in Real() }
    container.decorate((any Client).self, name: "auth") { _, _ in throw Refused() }
    let error = try #require(throws: ResolutionError.self) { try container.resolve((any Client).self) }
    #expect(
      error.chain.map(\.key.description) == [
        "PlugboardKitTests.DecoratorTests.Client",
        "PlugboardKitTests.DecoratorTests.Client decorator \"auth\"",
      ])
  }

  @Test func aDecoratorThatResolvesItsTargetIsACycle() throws {
    let container = Container()
    container.register((any Client).self) { _ in Real() }
    container.decorate((any Client).self, name: "loop") { r, inner in
      Wrapped("loop", try r.resolve((any Client).self))
    }
    let error = try #require(throws: ResolutionError.self) { try container.resolve((any Client).self) }
    guard case .cycle = error.kind else {
      Issue.record("expected a cycle, got \(error.kind)")
      return
    }
  }

  @Test func anAsyncDecoratorWrapsAnAsyncRegistration() async throws {
    let container = Container()
    container.register((any Client).self) { _ async in Real("async") }
    container.decorate((any Client).self, name: "warm") { _, inner async in Wrapped("warm", inner) }
    container.decorate((any Client).self, name: "sync") { _, inner in Wrapped("sync", inner) }
    let client = try await container.asyncResolver.resolve((any Client).self)
    #expect(client.trace == "sync(warm(async))")
  }

  @Test func anAsyncDecoratorOfASynchronousRegistrationFailsItsSynchronousResolve() throws {
    let container = Container()
    container.register((any Client).self) { _ in Real() }
    container.decorate((any Client).self, name: "warm") { _, inner async in Wrapped("warm", inner) }
    let error = try #require(throws: ResolutionError.self) { try container.resolve((any Client).self) }
    guard case .asyncRegistration = error.kind else {
      Issue.record("expected asyncRegistration, got \(error.kind)")
      return
    }
  }

  @Test func aChildsOverrideIsNotDecoratedByTheParent() throws {
    let parent = Container()
    parent.register((any Client).self) { _ in Real() }
    parent.decorate((any Client).self) { _, inner in Wrapped("w", inner) }
    let trace = try parent.withOverrides { child in
      child.register((any Client).self) { _ in Real("mock") }
      return try child.resolve((any Client).self).trace
    }
    #expect(trace == "mock")
    #expect(try parent.resolve((any Client).self).trace == "w(real)")
  }

  @Test func listingsTellADecoratorFromARegistration() throws {
    let container = Container()
    container.register((any Client).self) { _ in Real() }
    container.decorate((any Client).self, name: "timing", order: 3) { _, inner in Wrapped("t", inner) }
    let info = try #require(container.registrations.first { $0.key.isDecorator })
    let decorator = try #require(container.decorator(of: info.key))
    #expect(decorator.target == ServiceKey(service: TypeIdentity((any Client).self)))
    #expect(decorator.name == "timing")
    #expect(decorator.order == 3)
    #expect(decorator.label == "decorator \"timing\"")
    #expect(info.key.decoratorName == "timing")
    #expect(!info.key.isContribution)
    #expect(container.decorator(of: ServiceKey(service: TypeIdentity((any Client).self))) == nil)
  }

  @Test func aContainerWithoutDecoratorsStillCallsFactoriesDirectly() throws {
    let container = Container()
    container.register((any Client).self) { _ in Real() }.inObjectScope(.transient)
    container.register(Clock.self) { _ in Clock() }
    container.decorate(Clock.self) { _, inner in inner }
    // The undecorated registration keeps its direct call: its entry has
    // no completion step.
    #expect(try container.resolve((any Client).self).trace == "real")
  }
}

/// What `validate()` and `check()` say about decorators.
@Suite struct DecoratorCheckTests {
  protocol Client: Sendable {}
  struct Real: Client {}
  struct Wrapped: Client { let inner: any Client }
  struct Clock: Sendable {}

  @Test func aDecoratorWithoutTargetIsAWarningWithTheNamesThatExist() throws {
    let container = Container()
    container.register((any Client).self, name: "live") { _ in Real() }.dependsOn()
    container.decorate((any Client).self, name: "timing") { _, inner in Wrapped(inner: inner) }.dependsOn()
    let report = container.check()
    let finding = try #require(report.findings.first { $0.kind == .decoratorWithoutTarget })
    #expect(finding.severity == .warning)
    #expect(
      finding.title
        == "decorator \"timing\" of Client decorates nothing: nothing registers Client")
    #expect(finding.suggestions.count == 1)
    #expect(
      finding.suggestions.first?.hasPrefix("PlugboardKitTests.DecoratorCheckTests.Client named \"live\"")
        == true)
    #expect(report.errors.isEmpty)
  }

  @Test func aDecoratorsMissingDependencyIsTheTargetsToo() throws {
    let container = Container()
    container.register((any Client).self) { _ in Real() }.dependsOn()
    container.decorate((any Client).self, name: "timing") { r, inner in
      _ = try r.resolve(Clock.self)
      return Wrapped(inner: inner)
    }
    .dependsOn(Clock.self)
    let missing = try #require(container.check().errors.first { $0.kind == .missingDependency })
    #expect(
      missing.chain.map(\.display) == [
        "Client", "Client decorator \"timing\"",
        "Clock",
      ])
  }

  @Test func aCycleThroughADecoratorIsAnError() throws {
    let container = Container()
    container.register((any Client).self) { _ in Real() }.dependsOn()
    container.decorate((any Client).self, name: "loop") { r, _ in Wrapped(inner: try r.resolve()) }
      .dependsOn((any Client).self)
    let cycle = try #require(container.check().errors.first { $0.kind == .cycle })
    #expect(cycle.title.contains("decorator \"loop\""))
  }

  @Test func anAsyncDecoratorOfASynchronousRegistrationIsAnError() throws {
    let container = Container()
    container.register((any Client).self) { _ in Real() }.dependsOn()
    container.decorate((any Client).self, name: "warm") { _, inner async in Wrapped(inner: inner) }
      .dependsOn()
    let errors = container.check().errors
    #expect(errors.map(\.kind) == [.asyncDecoratorOfSynchronousRegistration])
    #expect(
      errors.first?.title
        == "an async decorator \"warm\" of the synchronous registration Client")
  }

  @Test func aDecoratedGraphWithEverythingRegisteredIsValid() async throws {
    let container = Container()
    container.register(Clock.self) { _ in Clock() }.dependsOn()
    container.register((any Client).self) { _ in Real() }.dependsOn()
    container.decorate((any Client).self, name: "timing") { r, inner in
      _ = try r.resolve(Clock.self)
      return Wrapped(inner: inner)
    }
    .dependsOn(Clock.self)
    #expect(container.check().findings.isEmpty)
    #expect(await container.checkByResolving().findings.isEmpty)
  }
}

/// A profile's choice of a named registration for a type's unnamed
/// requests makes that registration the one a decorator of the unnamed
/// one wraps: decorators follow what requests get.
@Suite struct DecoratorSelectionTests {
  protocol Client: Sendable { var trace: String { get } }
  struct Real: Client { let trace: String }
  struct Wrapped: Client {
    let inner: any Client
    var trace: String { "w(\(inner.trace))" }
  }

  @Test func theChosenRegistrationIsDecoratedAsTheUnnamedOne() throws {
    let container = Container()
    container.register((any Client).self) { _ in Real(trace: "live") }.dependsOn()
    container.register((any Client).self, name: "Mock") { _ in Real(trace: "mock") }.dependsOn()
    container.decorate((any Client).self, name: "timing") { _, inner in Wrapped(inner: inner) }.dependsOn()
    #expect(try container.resolve((any Client).self).trace == "w(live)")
    container.select(name: "Mock", for: TypeIdentity((any Client).self), reason: "profile mock")
    #expect(try container.resolve((any Client).self).trace == "w(mock)")
    let report = container.check()
    #expect(report.findings.isEmpty)
  }
}

/// A decorator of a singleton is part of making it: no captive itself,
/// and what it holds is held by the singleton.
@Suite struct DecoratorCaptiveTests {
  protocol Client: Sendable {}
  struct Real: Client {}
  struct Wrapped: Client {
    let inner: any Client
    let clock: Clock
  }
  struct Clock: Sendable {}

  @Test func aSingletonsDecoratorIsNoCaptiveButItsTransientDependencyIs() throws {
    let container = Container()
    container.register((any Client).self) { _ in Real() }.inObjectScope(.container).dependsOn()
    container.register(Clock.self) { _ in Clock() }.inObjectScope(.transient).dependsOn()
    container.decorate((any Client).self, name: "timing") { r, inner in
      Wrapped(inner: inner, clock: try r.resolve())
    }
    .dependsOn(Clock.self)
    let captives = container.check().findings.filter { $0.kind == .captiveDependency }
    #expect(captives.count == 1)
    #expect(captives.first?.chain.map(\.display) == ["Client", "Client decorator \"timing\"", "Clock"])
  }
}
