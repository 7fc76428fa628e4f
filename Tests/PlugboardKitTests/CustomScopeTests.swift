import PlugboardKit
import Synchronization
import Testing

extension CustomScope {
  fileprivate static let session = CustomScope("session")
  fileprivate static let device = CustomScope("device")
  fileprivate static let screen = CustomScope("screen", storage: .weak)
}

/// Custom scopes: a session-wide singleton reset at sign-out.
@Suite struct CustomScopeTests {
  @Test func sharesOneInstanceUntilReset() throws {
    let container = Container()
    let made = Atomic(0)
    container.register(Counted.self) { _ in
      Counted(serial: made.add(1, ordering: .relaxed).newValue)
    }
    .inObjectScope(.session)

    #expect(try container.resolve(Counted.self).serial == 1)
    #expect(try container.resolve(Counted.self).serial == 1)
    container.resetObjectScope(.session)
    #expect(try container.resolve(Counted.self).serial == 2)
    #expect(try container.resolve(Counted.self).serial == 2)
    #expect(made.load(ordering: .relaxed) == 2)
  }

  @Test func resetLeavesOtherScopesAlone() throws {
    let container = Container()
    container.register(Shared.self) { _ in Shared() }.inObjectScope(.device)
    container.register(Animal.self) { _ in Cat(name: "Mimi") }.inObjectScope(.container)
    let device = try container.resolve(Shared.self)
    let cat = try container.resolve(Animal.self)
    container.resetObjectScope(.session)
    #expect(try container.resolve(Shared.self) === device)
    #expect(try container.resolve(Animal.self) === cat)
  }

  @Test func resetReleasesTheInstance() throws {
    let container = Container()
    container.register(Shared.self) { _ in Shared() }.inObjectScope(.session)
    weak var first: Shared?
    do { first = try container.resolve(Shared.self) }
    #expect(first != nil)
    container.resetObjectScope(.session)
    #expect(first == nil)
  }

  /// A weak scope shares the instance while someone holds it, makes a new
  /// one after the last holder lets go, and after a reset.
  @Test func aWeakScopeKeepsTheInstanceOnlyWhileItIsHeld() throws {
    let container = Container()
    container.register(Shared.self) { _ in Shared() }.inObjectScope(.screen)
    weak var released: Shared?
    do {
      let held = try container.resolve(Shared.self)
      #expect(try container.resolve(Shared.self) === held)
      released = held
    }
    #expect(released == nil)
    let next = try container.resolve(Shared.self)
    #expect(try container.resolve(Shared.self) === next)
    container.resetObjectScope(.screen)
    #expect(try container.resolve(Shared.self) !== next)
  }

  /// A value cannot be held weakly: it is kept until the reset.
  @Test func aWeakScopeKeepsAValueUntilTheReset() throws {
    let container = Container()
    let made = Atomic(0)
    container.register(Int.self) { _ in made.add(1, ordering: .relaxed).newValue }.inObjectScope(.screen)
    #expect(try container.resolve(Int.self) == 1)
    #expect(try container.resolve(Int.self) == 1)
    container.resetObjectScope(.screen)
    #expect(try container.resolve(Int.self) == 2)
  }

  @Test func reportsItsScope() {
    let container = Container()
    let entry = container.register(Shared.self, file: "App/Session.swift", line: 3) { _ in Shared() }
      .inObjectScope(.session)
    #expect(entry.customObjectScope === CustomScope.session)
    #expect(entry.objectScope == .container)
    #expect(
      container.registrations.map(\.description) == [
        "PlugboardKitTests.Shared [session] at App/Session.swift:3"
      ])
    entry.inObjectScope(.transient)
    #expect(entry.customObjectScope == nil)
    #expect(container.registrations.map(\.customScope) == [nil])
  }

  @Test func childResetAlsoResetsTheParent() throws {
    let parent = Container()
    parent.register(Shared.self) { _ in Shared() }.inObjectScope(.session)
    let child = Container(parent: parent)
    let before = try child.resolve(Shared.self)
    #expect(try parent.resolve(Shared.self) === before)
    child.resetObjectScope(.session)
    #expect(try parent.resolve(Shared.self) !== before)
  }

  @Test func resetDuringConstructionDoesNotKeepTheOldSessionsInstance() throws {
    let container = Container()
    let made = Atomic(0)
    container.register(Counted.self) { _ in
      let serial = made.add(1, ordering: .relaxed).newValue
      // Sign-out while the first session's instance is being made.
      if serial == 1 { container.resetObjectScope(.session) }
      return Counted(serial: serial)
    }
    .inObjectScope(.session)

    #expect(try container.resolve(Counted.self).serial == 1)
    #expect(try container.resolve(Counted.self).serial == 2)
    #expect(try container.resolve(Counted.self).serial == 2)
  }

  @Test func makesOneInstancePerGenerationAcrossThreads() async throws {
    let container = Container()
    let made = Atomic(0)
    container.register(Counted.self) { _ in
      Counted(serial: made.add(1, ordering: .relaxed).newValue)
    }
    .inObjectScope(.session)
    let serials = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<32 { group.addTask { try container.resolve(Counted.self).serial } }
      return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
    }
    #expect(serials == [1])
    #expect(made.load(ordering: .relaxed) == 1)
  }

  @Test func valueTypesAndArgumentsWork() throws {
    let container = Container()
    container.register(String.self) { (_: Resolver, user: String) in "cart of \(user)" }.inObjectScope(
      .session)
    #expect(try container.resolve(String.self, arguments: "ann") == "cart of ann")
    // Like `.container`, the first instance serves whatever arguments follow.
    #expect(try container.resolve(String.self, arguments: "bob") == "cart of ann")
    container.resetObjectScope(.session)
    #expect(try container.resolve(String.self, arguments: "bob") == "cart of bob")
  }

  @Test func aFailingFactoryStoresNothing() throws {
    let container = Container()
    let fail = Atomic(true)
    container.register(Shared.self) { _ in
      if fail.load(ordering: .relaxed) { throw Failure(reason: "offline") }
      return Shared()
    }
    .inObjectScope(.session)
    let error = try #require(throws: ResolutionError.self) { try container.resolve(Shared.self) }
    #expect(error.description.contains("offline"))
    fail.store(false, ordering: .relaxed)
    #expect(try container.resolve(Shared.self) === container.resolve(Shared.self))
  }
}
