import Testing

@testable import PlugboardKit

/// The process-wide cache of kept `.container` instances that the inlined
/// resolve reads without a call: filled from a container's own answers,
/// emptied by every change that could change them.
@Suite struct KeptCacheTests {
  final class Thing: Sendable {
    let label: String
    init(_ label: String) { self.label = label }
  }

  @Test("the second unnamed resolve of a kept instance finds it in the cache")
  func aKeptInstanceIsCached() throws {
    let container = Container()
    container.register(Thing.self) { _ in Thing("kept") }.inObjectScope(.container)
    #expect(KeptCache.instance(of: ObjectIdentifier(Thing.self), in: container) == nil)
    let first = try container.resolve(Thing.self)
    _ = try container.resolve(Thing.self)
    #expect(KeptCache.instance(of: ObjectIdentifier(Thing.self), in: container) != nil)
    #expect(try container.resolve(Thing.self) === first)
  }

  @Test("a registration, a reset, a profile and a removal are seen by the next unnamed resolve")
  func changesEmptyTheCache() throws {
    let container = Container()
    container.register(Thing.self) { _ in Thing("first") }.inObjectScope(.container)
    let first = try container.resolve(Thing.self)
    _ = try container.resolve(Thing.self)
    container.resetObjectScope(.container)
    let second = try container.resolve(Thing.self)
    #expect(second !== first)
    _ = try container.resolve(Thing.self)
    container.register(Thing.self) { _ in Thing("replaced") }.inObjectScope(.container)
    #expect(try container.resolve(Thing.self).label == "replaced")
    container.register(Thing.self) { _ in Thing("in mock") }.inObjectScope(.container).inProfiles("mock")
    _ = try container.resolve(Thing.self)
    container.activeProfile = "mock"
    #expect(try container.resolve(Thing.self).label == "in mock")
    _ = try container.resolve(Thing.self)
    container.removeAll()
    #expect(throws: ResolutionError.self) { try container.resolve(Thing.self) }
  }

  @Test("a container made where an earlier one was is not served that one's instance")
  func aReusedAddressIsNotServedTheOldInstance() throws {
    for round in 0..<200 {
      let container = Container()
      container.register(Thing.self) { _ in Thing("\(round)") }.inObjectScope(.container)
      _ = try container.resolve(Thing.self)
      #expect(try container.resolve(Thing.self).label == "\(round)")
    }
  }

  @Test("a child is served its own registration, not its parent's cached instance")
  func aChildIsServedItsOwn() throws {
    let parent = Container()
    parent.register(Thing.self) { _ in Thing("parent") }.inObjectScope(.container)
    _ = try parent.resolve(Thing.self)
    _ = try parent.resolve(Thing.self)
    let child = Container(parent: parent)
    #expect(try child.resolve(Thing.self).label == "parent")
    child.register(Thing.self) { _ in Thing("child") }.inObjectScope(.container)
    #expect(try child.resolve(Thing.self).label == "child")
    #expect(try child.resolve(Thing.self).label == "child")
    #expect(try parent.resolve(Thing.self).label == "parent")
  }
}

/// The table of unnamed registrations with runtime arguments, filled as
/// requests find them, is withdrawn with every change that moves them.
@Suite struct ArgumentTableTests {
  typealias Cat = KeptCacheTests.Thing

  @Test("a registration made a fallback after it was resolved gives way to the one it replaced")
  func aFallbackGivesWay() throws {
    let container = Container()
    container.register(Cat.self) { (_, name: String) in Cat("registered first: \(name)") }
    #expect(try container.resolve(Cat.self, arguments: "Mimi").label == "registered first: Mimi")
    let later = container.register(Cat.self) { (_, name: String) in Cat("registered later: \(name)") }
    #expect(try container.resolve(Cat.self, arguments: "Mimi").label == "registered later: Mimi")
    _ = try container.resolve(Cat.self, arguments: "Mimi")
    later.asFallback()
    #expect(try container.resolve(Cat.self, arguments: "Mimi").label == "registered first: Mimi")
  }
}
