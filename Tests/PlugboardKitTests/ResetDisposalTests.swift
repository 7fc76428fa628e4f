import PlugboardKit
import Synchronization
import Testing

/// What a reset disposes, in which order, and the dispose time limit a
/// container's scopes inherit.
@Suite struct ResetDisposalTests {
  final class Unit: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
  }

  final class Log: Sendable {
    private let entries = Mutex<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
  }

  private func register(_ names: [String], in container: Container, scope: ObjectScope, log: Log) {
    for name in names {
      container.register(Unit.self, name: name) { _ in Unit(name) }
        .inObjectScope(scope)
        .onDispose { log.append($0.name) }
    }
  }

  /// Made in another order than registered: the reset disposes the newest
  /// first, not the last registered.
  @Test func aResetDisposesInReverseOrderOfCreation() throws {
    let log = Log()
    let container = Container()
    register(["a", "b", "c"], in: container, scope: .container, log: log)
    for name in ["c", "a", "b"] { _ = try container.resolve(Unit.self, name: name) }
    container.resetObjectScope(.container)
    #expect(log.all == ["b", "a", "c"])
  }

  /// A child's and its parent's instances are one sequence, newest first.
  @Test func aResetOrdersAChildAndItsParentTogether() throws {
    let log = Log()
    let parent = Container()
    let child = Container(parent: parent)
    register(["p1", "p2"], in: parent, scope: .container, log: log)
    register(["c1"], in: child, scope: .container, log: log)
    _ = try parent.resolve(Unit.self, name: "p2")
    _ = try child.resolve(Unit.self, name: "c1")
    _ = try parent.resolve(Unit.self, name: "p1")
    child.resetObjectScope(.container)
    #expect(log.all == ["p1", "c1", "p2"])
  }

  @Test func aCustomScopeResetDisposesInReverseOrderOfCreation() throws {
    let log = Log()
    let session = CustomScope("session")
    let container = Container()
    for name in ["x", "y"] {
      container.register(Unit.self, name: name) { _ in Unit(name) }
        .inObjectScope(session)
        .onDispose { log.append($0.name) }
    }
    _ = try container.resolve(Unit.self, name: "y")
    _ = try container.resolve(Unit.self, name: "x")
    container.resetObjectScope(session)
    #expect(log.all == ["x", "y"])
  }

  /// A `.weak` instance still held is disposed (once); one already gone is
  /// not: nothing is left to tell.
  @Test func aResetDisposesWeakInstancesStillAlive() throws {
    let log = Log()
    let container = Container()
    register(["held", "gone"], in: container, scope: .weak, log: log)
    let held = try container.resolve(Unit.self, name: "held")
    _ = try container.resolve(Unit.self, name: "gone")
    container.resetObjectScope(.weak)
    container.resetObjectScope(.weak)
    #expect(log.all == ["held"])
    #expect(try container.resolve(Unit.self, name: "held") !== held)
  }

  /// Scopes take their dispose time limit from their container, which
  /// takes it from its parent; a scope's own still wins.
  @Test func scopesInheritTheContainersDisposeTimeout() {
    let container = Container()
    #expect(container.makeScope().disposeTimeout == ServiceScope.defaultDisposeTimeout)
    container.disposeTimeout = .seconds(7)
    let child = Container(parent: container)
    #expect(container.makeScope().disposeTimeout == .seconds(7))
    #expect(child.makeScope().disposeTimeout == .seconds(7))
    #expect(child.makeScope().resolver.makeScope().disposeTimeout == .seconds(7))
    #expect(container.makeScope(disposeTimeout: .seconds(2)).disposeTimeout == .seconds(2))
  }
}
