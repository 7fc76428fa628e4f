import PlugboardKit
import Testing

/// One link of a generated chain: `Link<N>` would need 10,000 types, so the
/// chain is made of named registrations of one type instead.
final class ChainNode {
  let next: ChainNode?
  init(next: ChainNode?) { self.next = next }
}

@Suite struct DeepChainTests {
  static let depth = 10_000

  func chainContainer(closingCycle: Bool) -> Container {
    let container = Container()
    for level in 0..<Self.depth {
      let isLast = level == Self.depth - 1
      container.register(ChainNode.self, name: "n\(level)") { r in
        if isLast {
          return closingCycle ? try r.resolve(ChainNode.self, name: "n0") : ChainNode(next: nil)
        }
        return ChainNode(next: try r.resolve(ChainNode.self, name: "n\(level + 1)"))
      }
    }
    return container
  }

  @Test func aChainTenThousandDeepResolves() throws {
    var node: ChainNode? = try chainContainer(closingCycle: false).resolve(ChainNode.self, name: "n0")
    var length = 0
    while let current = node {
      length += 1
      node = current.next
    }
    #expect(length == Self.depth)
  }

  @Test func aCycleTenThousandLongIsReported() throws {
    let error = try #require(throws: ResolutionError.self) {
      try chainContainer(closingCycle: true).resolve(ChainNode.self, name: "n0")
    }
    guard case .cycle(let path) = error.kind else {
      Issue.record("expected a cycle, got \(error.kind)")
      return
    }
    #expect(path.count == Self.depth + 1)
    #expect(path.first == path.last)
    #expect(error.chain.count == Self.depth + 1)
  }

  @Test func aDeepChainResolvesFromASmallStackThread() async throws {
    // Worker threads of the concurrency pool have smaller stacks than main.
    let container = chainContainer(closingCycle: false)
    let resolved = try await Task.detached {
      try container.resolve(ChainNode.self, name: "n0").next != nil
    }.value
    #expect(resolved)
  }
}
