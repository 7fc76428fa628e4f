import PlugboardKit
import Testing

/// The resolving code calls a `.transient` factory itself while the chain
/// is shallow and plain, and copies a `.graph` instance the resolution
/// already holds; everything else takes the general path. These tests sit
/// on the borders between the two: what a request sees must not depend on
/// which path served it.
@Suite struct DirectCallTests {
  /// A chain of `count` transient registrations named "0", "1", …, each
  /// resolving the next; the last one runs `last`.
  static func chain(count: Int, last: @escaping @Sendable (Resolver) throws -> Int) -> Container {
    let container = Container(defaultObjectScope: .transient)
    for level in 0..<count - 1 {
      container.register(Int.self, name: "\(level)", file: "Chain.swift", line: level) { r in
        try r.resolve(Int.self, name: "\(level + 1)") + 1
      }
    }
    container.register(Int.self, name: "\(count - 1)", file: "Chain.swift", line: count - 1, factory: last)
    return container
  }

  @Test func aFailureBelowTheShallowPartKeepsEveryLink() throws {
    // Deeper than the frames the direct path takes (32): the lower links
    // are entered by the general path.
    let container = Self.chain(count: 50) { _ in throw Failure(reason: "level 49 failed") }
    let error = try #require(throws: ResolutionError.self) { try container.resolve(Int.self, name: "0") }
    #expect(error.chain.map(\.key.name) == (0..<50).map { "\($0)" })
    #expect(error.chain.map { $0.site?.line } == Array(0..<50))
    #expect((error.underlyingError as? Failure)?.reason == "level 49 failed")
    // The chain was left whole: the next request starts from nothing.
    let next = try #require(throws: ResolutionError.self) { try container.resolve(Int.self, name: "48") }
    #expect(next.chain.map(\.key.name) == ["48", "49"])
  }

  @Test func aCycleClosingBelowTheShallowPartIsACycle() throws {
    let container = Self.chain(count: 40) { r in try r.resolve(Int.self, name: "5") }
    let error = try #require(throws: ResolutionError.self) { try container.resolve(Int.self, name: "0") }
    guard case .cycle(let path) = error.kind else {
      Issue.record("expected a cycle, got \(error.kind)")
      return
    }
    #expect(path.map(\.name) == (5..<40).map { "\($0)" } + ["5"])
    #expect(error.chain.count == 41)
  }

  @Test func aDeepChainThatSucceedsCountsEveryLevel() throws {
    let container = Self.chain(count: 200) { _ in 0 }
    #expect(try container.resolve(Int.self, name: "0") == 199)
    #expect(try container.resolve(Int.self, name: "150") == 49)
  }

  @Test func theDepthLimitHoldsOnTheDirectPath() throws {
    let container = Container(defaultObjectScope: .transient, maximumDepth: 10)
    for level in 0..<20 {
      container.register(Int.self, name: "\(level)") { r in try r.resolve(Int.self, name: "\(level + 1)") }
    }
    let error = try #require(throws: ResolutionError.self) { try container.resolve(Int.self, name: "0") }
    guard case .tooDeep(let limit) = error.kind else {
      Issue.record("expected tooDeep, got \(error.kind)")
      return
    }
    #expect(limit == 10)
    #expect(error.chain.map(\.key.name) == (0..<10).map { "\($0)" })
  }

  @Test func aThrowingTopLevelFactoryReleasesTheGraphInstancesItMade() throws {
    final class Probe: @unchecked Sendable { weak var held: Shared? }
    let probe = Probe()
    let container = Container(defaultObjectScope: .transient)
    container.register(Shared.self) { _ in Shared() }.inObjectScope(.graph)
    container.register(Int.self) { r in
      let shared = try r.resolve(Shared.self)
      probe.held = shared
      #expect(try r.resolve(Shared.self) === shared)
      throw Failure(reason: "after the graph object")
    }
    // A thread's first resolution takes the general path; this test is
    // about the ones after it.
    _ = try container.resolve(Shared.self)
    #expect(throws: ResolutionError.self) { try container.resolve(Int.self) }
    #expect(probe.held == nil)
  }

  @Test func aGraphInstanceIsCopiedFromAFreshResolutionOnly() throws {
    let container = Container(defaultObjectScope: .transient)
    container.register(Shared.self) { _ in Shared() }.inObjectScope(.graph)
    container.register([Shared].self) { r in try [r.resolve(), r.resolve(), r.resolve()] }
    let first = try container.resolve([Shared].self)
    let second = try container.resolve([Shared].self)
    #expect(first[0] === first[1] && first[1] === first[2])
    #expect(first[0] !== second[0])
  }

  @Test func aTransientWithAHandlerStillRunsIt() throws {
    final class Parent { var child: Child? }
    final class Child { weak var parent: Parent? }
    let container = Container(defaultObjectScope: .transient)
    container.register(Child.self) { _ in Child() }
    container.register(Parent.self) { _ in Parent() }
      .initCompleted { r, parent in
        let child = try r.resolve(Child.self)
        child.parent = parent
        parent.child = child
      }
    let parent = try container.resolve(Parent.self)
    #expect(parent.child?.parent === parent)
  }

  @Test func aTransientWithArgumentsThatThrowsIsReportedAtItsLink() throws {
    let container = Container(defaultObjectScope: .transient)
    container.register(String.self, file: "Args.swift", line: 3) { (_, name: String, count: Int) in
      if count < 0 { throw Failure(reason: "negative count") }
      return String(repeating: name, count: count)
    }
    container.register(Int.self, file: "Args.swift", line: 9) { r in
      try r.resolve(String.self, arguments: "ab", -1).count
    }
    #expect(try container.resolve(String.self, arguments: "ab", 2) == "abab")
    let error = try #require(throws: ResolutionError.self) { try container.resolve(Int.self) }
    #expect(error.chain.map { $0.site?.line } == [9, 3])
    #expect(error.chain.last?.key.arguments.map(\.description) == ["Swift.String", "Swift.Int"])
    #expect((error.underlyingError as? Failure)?.reason == "negative count")
  }
}
