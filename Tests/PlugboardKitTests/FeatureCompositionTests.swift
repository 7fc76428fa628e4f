import Foundation
import PlugboardTestSupport
import Synchronization
import Testing

@testable import PlugboardKit

/// The container's features where they meet: each scope with and without
/// a decorator, registered plainly or per arguments, resolved from the
/// container that registers it or from a child, and checked. One case per
/// combination, so that a feature added later meets every other one here.
@Suite struct FeatureCompositionTests {
  protocol Client: AnyObject, Sendable { var trace: String { get } }
  final class Real: Client {
    let id: String
    init(_ id: String) { self.id = id }
    var trace: String { id }
  }
  final class Wrapped: Client {
    let inner: any Client
    init(_ inner: any Client) { self.inner = inner }
    var trace: String { "w(\(inner.trace))" }
  }

  enum Scope: String, CaseIterable, Sendable {
    case transient, graph, container, custom
    /// Whether two requests from one place get one instance.
    var shares: Bool { self == .container || self == .custom }
  }
  enum Registering: CaseIterable, Sendable { case plain, perArguments }
  enum ResolvedFrom: CaseIterable, Sendable { case own, child }

  /// A registration of `Client` taking a `String`, counting what its
  /// factory and its decorator make and naming what is disposed.
  final class Fixture: Sendable {
    let container = Container()
    let session = CustomScope("session")
    let made = Atomic(0)
    let decorated = Atomic(0)
    let disposed = Mutex<[ObjectIdentifier]>([])

    /// A fixture with nothing registered, for a test that registers its own.
    init() {}

    init(scope: Scope, registering: Registering, decorate: Bool) {
      let factory: @Sendable (Resolver, String) -> any Client = { _, id in
        self.made.add(1, ordering: .relaxed)
        return Real(id)
      }
      let entry =
        switch registering {
        case .plain: container.register((any Client).self, factory: factory)
        case .perArguments: container.registerPerArguments((any Client).self, factory: factory)
        }
      switch scope {
      case .transient: entry.inObjectScope(.transient)
      case .graph: entry.inObjectScope(.graph)
      case .container: entry.inObjectScope(.container)
      case .custom: entry.inObjectScope(session)
      }
      entry.dependsOn()
      // A hook on a scope that never disposes is a finding of its own.
      if scope.shares {
        entry.onDispose { client in self.disposed.withLock { $0.append(ObjectIdentifier(client)) } }
      }
      if decorate {
        container.decorate((any Client).self, name: "timing") { _, inner in
          self.decorated.add(1, ordering: .relaxed)
          return Wrapped(inner)
        }
        .dependsOn()
      }
    }

    func reset(_ scope: Scope) {
      if scope == .custom {
        container.resetObjectScope(session)
      } else {
        container.resetObjectScope(.container)
      }
    }
  }

  @Test(arguments: Scope.allCases, Registering.allCases)
  func eachScopeDecoratedOrNotFromHereOrAChild(scope: Scope, registering: Registering) throws {
    for decorate in [false, true] {
      for from in ResolvedFrom.allCases {
        let fixture = Fixture(scope: scope, registering: registering, decorate: decorate)
        let resolver = from == .own ? fixture.container : Container(parent: fixture.container)
        let first = try resolver.resolve((any Client).self, argument: "lobby")
        let second = try resolver.resolve((any Client).self, argument: "lobby")
        let label = "\(scope) \(registering) decorated: \(decorate) from: \(from)"
        #expect(first.trace == (decorate ? "w(lobby)" : "lobby"), "\(label)")
        #expect((first === second) == scope.shares, "\(label)")
        let made = fixture.made.load(ordering: .relaxed)
        #expect(made == (scope.shares ? 1 : 2), "\(label)")
        #expect(fixture.decorated.load(ordering: .relaxed) == (decorate ? made : 0), "\(label)")
        let report = fixture.container.check()
        #expect(report.findings.isEmpty, "\(label): \(report.findings.map(\.title))")
        fixture.reset(scope)
        let disposed = fixture.disposed.withLock { $0 }
        #expect(disposed == (scope.shares ? [ObjectIdentifier(first)] : []), "\(label)")
      }
    }
  }

  /// How a forwarded type, its target's scope and its decorator are
  /// written: Swinject's layout (scope, then `.implements`), the scope set
  /// after `.implements`, the decorator declared before the registration,
  /// and `forward(_:to:)` with a dispose hook on the forwarded type.
  enum Forwarding: CaseIterable, Sendable {
    case scopeThenImplements, implementsThenScope, decoratorFirst, hooked
  }

  /// A decorator of a type forwarded to a registration (`.implements`)
  /// follows the target's scope: the decorated instance is made once per
  /// lifetime of that scope, kept, and disposed with it, as the decorated
  /// target itself is.
  @Test(arguments: Scope.allCases, Registering.allCases)
  func aForwardedTypesDecoratorFollowsItsTargetsScope(scope: Scope, registering: Registering) throws {
    for forwarding in Forwarding.allCases {
      for from in ResolvedFrom.allCases {
        try forwardedAndDecorated(scope: scope, registering: registering, forwarding: forwarding, from: from)
      }
    }
  }

  private func forwardedAndDecorated(
    scope: Scope, registering: Registering, forwarding: Forwarding, from: ResolvedFrom
  ) throws {
    let fixture = Fixture()
    let container = fixture.container
    let label = "\(scope) \(registering) \(forwarding) from: \(from)"
    func decorate() {
      container.decorate((any Client).self, name: "timing") { _, inner in
        fixture.decorated.add(1, ordering: .relaxed)
        return Wrapped(inner)
      }
      .dependsOn()
    }
    if forwarding == .decoratorFirst { decorate() }
    let factory: @Sendable (Resolver, String) -> Real = { _, id in
      fixture.made.add(1, ordering: .relaxed)
      return Real(id)
    }
    let entry =
      switch registering {
      case .plain: container.register(Real.self, factory: factory)
      case .perArguments: container.registerPerArguments(Real.self, factory: factory)
      }
    entry.dependsOn()
    func inScope() {
      switch scope {
      case .transient: entry.inObjectScope(.transient)
      case .graph: entry.inObjectScope(.graph)
      case .container: entry.inObjectScope(.container)
      case .custom: entry.inObjectScope(fixture.session)
      }
    }
    switch forwarding {
    case .scopeThenImplements, .decoratorFirst:
      inScope()
      entry.implements((any Client).self)
    case .implementsThenScope:
      entry.implements((any Client).self)
      inScope()
    case .hooked:
      let forwarded = container.forward((any Client).self, to: entry)
      inScope()
      if scope.shares {
        forwarded.onDispose { client in fixture.disposed.withLock { $0.append(ObjectIdentifier(client)) } }
      }
    }
    if forwarding != .decoratorFirst { decorate() }
    let resolver = from == .own ? container : Container(parent: container)
    let first = try resolver.resolve((any Client).self, argument: "lobby")
    let second = try resolver.resolve((any Client).self, argument: "lobby")
    #expect(first.trace == "w(lobby)", "\(label)")
    #expect((first === second) == scope.shares, "\(label)")
    let made = fixture.made.load(ordering: .relaxed)
    #expect(made == (scope.shares ? 1 : 2), "\(label)")
    #expect(fixture.decorated.load(ordering: .relaxed) == made, "\(label)")
    if scope.shares {
      // Another argument: its own instance per arguments, the first one's otherwise.
      let games = try resolver.resolve((any Client).self, argument: "games")
      #expect((games === first) == (registering == .plain), "\(label)")
    }
    let report = container.check()
    #expect(report.findings.isEmpty, "\(label): \(report.findings.map(\.title))")
    fixture.reset(scope)
    if scope.shares {
      let disposed = fixture.disposed.withLock { $0 }
      #expect(disposed.contains(ObjectIdentifier(first)) == (forwarding == .hooked), "\(label)")
      let afterReset = try resolver.resolve((any Client).self, argument: "lobby")
      #expect(afterReset !== first, "\(label)")
      #expect(afterReset.trace == "w(lobby)", "\(label)")
    }
  }

  /// A decorated per-arguments registration keeps one decorated instance
  /// per arguments: another argument gets another one, decorated once.
  @Test func aDecoratedPerArgumentsRegistrationKeepsOneDecoratedInstancePerArguments() throws {
    let fixture = Fixture(scope: .container, registering: .perArguments, decorate: true)
    let lobby = try fixture.container.resolve((any Client).self, argument: "lobby")
    let games = try fixture.container.resolve((any Client).self, argument: "games")
    #expect(try fixture.container.resolve((any Client).self, argument: "lobby") === lobby)
    #expect(lobby !== games)
    #expect(games.trace == "w(games)")
    #expect(fixture.decorated.load(ordering: .relaxed) == 2)
  }

  /// A per-arguments instance whose construction a reset overtook is kept
  /// for its arguments after the reset, as a plain `.container` one is:
  /// what its caller got is what the next request gets and what the next
  /// reset disposes.
  @Test(.blocking) func aPerArgumentsInstanceMadeAcrossAResetIsKeptAndDisposed() throws {
    let container = Container()
    let started = InitCompletedPublicationTests.Gate()
    let proceed = InitCompletedPublicationTests.Gate()
    let holding = Atomic(true)
    let disposed = Mutex<[ObjectIdentifier]>([])
    container.registerPerArguments((any Client).self) { (_, id: String) -> any Client in
      if holding.exchange(false, ordering: .relaxed) {
        started.open()
        _ = proceed.pass()
      }
      return Real(id)
    }
    .onDispose { client in disposed.withLock { $0.append(ObjectIdentifier(client)) } }
    let making = InitCompletedPublicationTests.Background {
      Result { try container.resolve((any Client).self, argument: "lobby") }
    }
    #expect(started.pass())
    container.resetObjectScope(.container)
    proceed.open()
    let made = try #require(making.join()).get()
    #expect(try container.resolve((any Client).self, argument: "lobby") === made)
    container.resetObjectScope(.container)
    #expect(disposed.withLock { $0 } == [ObjectIdentifier(made)])
  }

  /// A child's decorator does not wrap its parent's registrations; the
  /// check says so instead of claiming that nothing registers the target.
  @Test func aChildsDecoratorOfItsParentsRegistrationIsWarnedAboutAsSuch() throws {
    let parent = Container()
    parent.register((any Client).self) { _ in Real("real") }.dependsOn()
    let child = Container(parent: parent)
    child.decorate((any Client).self, name: "timing") { _, inner in Wrapped(inner) }.dependsOn()
    #expect(try child.resolve((any Client).self).trace == "real")
    let finding = try #require(child.check().findings.first { $0.kind == .decoratorWithoutTarget })
    #expect(
      finding.title
        == "decorator \"timing\" of Client decorates nothing: a parent container registers Client, "
        + "and a decorator wraps only registrations of its own container")
  }
}

/// Forwarding (`.implements`) meeting the other features: a forwarded
/// type's registration stands for its target's, in fallbacks and in the
/// order a scope disposes.
@Suite struct ForwardingCompositionTests {
  protocol Logger: Sendable { var name: String { get } }
  struct Plain: Logger { let name = "plain" }
  struct Journal: Logger { let name = "journal" }

  protocol Storing: Sendable {}
  final class Store: Storing {}
  final class Report: Sendable {
    let store: Lazy<any Storing>
    init(store: Lazy<any Storing>) { self.store = store }
  }

  @Test(arguments: [true, false], [true, false])
  func aFallbacksForwardedTypeIsAFallbackToo(fallbackFirst: Bool, forwardedFirst: Bool) throws {
    let container = Container()
    func fallback() {
      let entry = container.register(Plain.self) { _ in Plain() }.dependsOn()
      if forwardedFirst {
        entry.implements((any Logger).self).asFallback()
      } else {
        entry.asFallback().implements((any Logger).self)
      }
    }
    if fallbackFirst { fallback() }
    container.register((any Logger).self) { _ in Journal() }.dependsOn()
    if !fallbackFirst { fallback() }
    #expect(try container.resolve((any Logger).self).name == "journal")
    #expect(try container.resolve(Plain.self).name == "plain")
    let findings = container.check().findings
    #expect(findings.isEmpty, "\(findings.map(\.title))")
  }

  @Test func aDependencyServedThroughImplementsIsDisposedAfterItsUser() async throws {
    let order = Mutex<[String]>([])
    let container = Container()
    container.register(Report.self) { r in Report(store: try r.resolve()) }.inObjectScope(.container)
      .dependsOn(Lazy<any Storing>.self).onDispose { _ in order.withLock { $0.append("report") } }
    container.register(Store.self) { _ in Store() }.inObjectScope(.container).dependsOn()
      .onDispose { _ in order.withLock { $0.append("store") } }
      .implements((any Storing).self)
    let report = try container.resolve(Report.self)
    // Made now, after the Report: newest first would dispose it first.
    _ = try report.store.instance
    try await container.dispose()
    #expect(order.withLock { $0 } == ["report", "store"])
  }
}

/// The captive check meeting custom scopes and providers: a `.scoped`
/// registration reached from outside any scope fails every resolve, and
/// the check says so wherever the path starts.
@Suite struct CaptiveCompositionTests {
  final class Basket: Sendable {}
  final class Cart: Sendable {
    let basket: Basket
    init(_ basket: Basket) { self.basket = basket }
  }
  final class Holder: Sendable {
    let carts: Provider<Cart>
    init(_ carts: Provider<Cart>) { self.carts = carts }
  }

  @Test func aCustomScopesServiceReachingAScopedOneIsAnError() throws {
    let session = CustomScope("session")
    let container = Container()
    container.register(Cart.self) { r in Cart(try r.resolve()) }.inObjectScope(session).dependsOn(Basket.self)
    container.register(Basket.self) { _ in Basket() }.inObjectScope(.scoped).dependsOn()
    #expect(throws: ResolutionError.self) { try container.resolve(Cart.self) }
    let finding = try #require(container.check().findings.first { $0.kind == .captiveDependency })
    #expect(finding.severity == .error)
    #expect(finding.title == "captive dependency: Cart (custom scope session) holds Basket (scoped)")
  }

  @Test func aSingletonsProviderOfATransientReachingAScopedOneIsAnError() throws {
    let container = Container()
    container.register(Holder.self) { r in Holder(try r.resolve()) }.inObjectScope(.container)
      .dependsOn(Provider<Cart>.self)
    container.register(Cart.self) { r in Cart(try r.resolve()) }.inObjectScope(.transient)
      .dependsOn(Basket.self)
    container.register(Basket.self) { _ in Basket() }.inObjectScope(.scoped).dependsOn()
    let holder = try container.resolve(Holder.self)
    #expect(throws: ResolutionError.self) { try holder.carts.instance }
    let finding = try #require(container.check().findings.first { $0.kind == .captiveDependency })
    #expect(finding.severity == .error)
    #expect(finding.title == "captive dependency: Holder (container) holds Basket (scoped)")
    #expect(finding.chain.map(\.marker).last == "✗ scope scoped, read outside any scope")
  }
}

/// `description` shows decorators and contributions as their users wrote
/// them, never the names the container stores them under.
@Suite struct DescriptionOfKindsTests {
  protocol Client: Sendable {}
  struct Real: Client {}
  protocol Command: Sendable {}
  struct Help: Command {}

  @Test func decoratorsAndContributionsReadAsWritten() {
    let container = Container()
    container.register((any Client).self) { _ in Real() }
    container.decorate((any Client).self, name: "m") { _, inner in inner }
    container.contribute((any Command).self, name: "help") { _ in Help() }
    let lines = container.description.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(!container.description.contains("\u{0}"))
    #expect(
      lines == [
        "[",
        "{ Service: Client, Decorator: \"m\", Factory: (Resolver, Client) -> Client, ObjectScope: transient },",
        "{ Service: Client, Factory: Resolver -> Client, ObjectScope: graph },",
        "{ Service: Command, Contribution: \"help\", Factory: Resolver -> Command, ObjectScope: graph }",
        "]",
      ])
  }
}
