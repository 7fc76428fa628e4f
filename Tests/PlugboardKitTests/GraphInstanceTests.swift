import PlugboardKit
import Synchronization
import Testing

/// How a resolution keeps its `.graph` instances: a class instance in the
/// resolution's own entry, anything else in memory of its own; either way
/// shared within one top-level resolve and released when it ends.
@Suite struct GraphInstanceTests {
  /// A value type larger than a reference, so it is kept out of line.
  struct Token {
    let id: Int
    let label: String
  }

  struct Pair {
    let first: Token
    let second: Token
  }

  final class Probe: @unchecked Sendable {
    weak var held: Shared?
  }

  @Test func aGraphValueIsSharedWithinOneResolve() throws {
    let container = Container()
    let made = Atomic(0)
    container.register(Token.self) { _ in
      Token(id: made.add(1, ordering: .relaxed).newValue, label: "a label longer than a reference")
    }.inObjectScope(.graph)
    container.register(Pair.self) { r in try Pair(first: r.resolve(), second: r.resolve()) }

    let pair = try container.resolve(Pair.self)
    #expect(pair.first.id == pair.second.id)
    #expect(pair.first.label == "a label longer than a reference")
    #expect(try container.resolve(Pair.self).first.id == pair.first.id + 1)
  }

  @Test func aGraphObjectIsReleasedWhenTheResolveEnds() throws {
    let container = Container()
    let probe = Probe()
    container.register(Shared.self) { _ in Shared() }.inObjectScope(.graph)
    container.register(Bool.self) { r in
      let first = try r.resolve(Shared.self)
      let second = try r.resolve(Shared.self)
      probe.held = first
      return first === second
    }
    #expect(try container.resolve(Bool.self))
    #expect(probe.held == nil)
  }

  @Test func manyGraphObjectsInOneResolveAreEachShared() throws {
    // More than the resolution scans before it indexes its instances.
    let names = (0..<40).map { "shared\($0)" }
    let container = Container()
    for name in names {
      container.register(Shared.self, name: name) { _ in Shared() }.inObjectScope(.graph)
    }
    container.register([Bool].self) { r in
      let firsts = try names.map { try r.resolve(Shared.self, name: $0) }
      let seconds = try names.map { try r.resolve(Shared.self, name: $0) }
      let distinct = Set(firsts.map(ObjectIdentifier.init)).count == names.count
      return zip(firsts, seconds).map { $0 === $1 } + [distinct]
    }
    #expect(try container.resolve([Bool].self) == Array(repeating: true, count: names.count + 1))
  }
}
