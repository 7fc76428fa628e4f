import PlugboardKit
import Synchronization
import Testing

@Suite struct ObjectScopeTests {
  @Test func transientMakesANewInstanceEveryTime() throws {
    let container = Container()
    container.register(Shared.self) { _ in Shared() }.inObjectScope(.transient)
    #expect(try container.resolve(Shared.self) !== container.resolve(Shared.self))
  }

  @Test func graphSharesWithinOneResolveOnly() throws {
    let container = Container()
    container.register(Shared.self) { _ in Shared() }.inObjectScope(.graph)
    container.register(Left.self) { r in try Left(shared: r.resolve()) }
    container.register(Right.self) { r in try Right(shared: r.resolve()) }
    container.register(Both.self) { r in try Both(left: r.resolve(), right: r.resolve()) }

    let first = try container.resolve(Both.self)
    let second = try container.resolve(Both.self)
    #expect(first.left.shared === first.right.shared)
    #expect(first.left.shared !== second.left.shared)
  }

  @Test func graphIsTheDefaultScope() throws {
    let container = Container()
    let entry = container.register(Shared.self) { _ in Shared() }
    #expect(entry.objectScope == .graph)
  }

  @Test func transientDependenciesAreNotSharedWithinAGraph() throws {
    let container = Container()
    container.register(Shared.self) { _ in Shared() }.inObjectScope(.transient)
    container.register(Left.self) { r in try Left(shared: r.resolve()) }
    container.register(Right.self) { r in try Right(shared: r.resolve()) }
    container.register(Both.self) { r in try Both(left: r.resolve(), right: r.resolve()) }
    let both = try container.resolve(Both.self)
    #expect(both.left.shared !== both.right.shared)
  }

  @Test func containerMakesOneInstanceLazily() throws {
    let made = Atomic(0)
    let container = Container()
    container.register(Counted.self) { _ in
      Counted(serial: made.add(1, ordering: .relaxed).newValue)
    }.inObjectScope(.container)
    #expect(made.load(ordering: .relaxed) == 0)
    let first = try container.resolve(Counted.self)
    let second = try container.resolve(Counted.self)
    #expect(first === second)
    #expect(made.load(ordering: .relaxed) == 1)
  }

  @Test func weakSharesWhileHeldAndRemakesAfterRelease() throws {
    let made = Atomic(0)
    let container = Container()
    container.register(Counted.self) { _ in
      Counted(serial: made.add(1, ordering: .relaxed).newValue)
    }.inObjectScope(.weak)

    var held: Counted? = try container.resolve(Counted.self)
    #expect(try container.resolve(Counted.self) === held)
    #expect(held?.serial == 1)
    held = nil
    #expect(try container.resolve(Counted.self).serial == 2)
  }

  @Test func weakValueTypesBehaveAsTransient() throws {
    let made = Atomic(0)
    let container = Container()
    container.register(Int.self) { _ in made.add(1, ordering: .relaxed).newValue }
      .inObjectScope(.weak)
    #expect(try container.resolve(Int.self) == 1)
    #expect(try container.resolve(Int.self) == 2)
  }

  @Test func aFailedContainerFactoryIsRetriedNextTime() throws {
    let attempts = Atomic(0)
    let container = Container()
    container.register(Counted.self) { _ in
      let attempt = attempts.add(1, ordering: .relaxed).newValue
      if attempt == 1 { throw Failure(reason: "first attempt fails") }
      return Counted(serial: attempt)
    }.inObjectScope(.container)
    #expect(throws: ResolutionError.self) { try container.resolve(Counted.self) }
    #expect(try container.resolve(Counted.self).serial == 2)
    #expect(try container.resolve(Counted.self).serial == 2)
  }
}
