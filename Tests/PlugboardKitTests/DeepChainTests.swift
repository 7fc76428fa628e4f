import Dispatch
import PlugboardTestSupport
import Testing

@testable import PlugboardKit

#if canImport(Glibc)
  import Glibc
#endif

/// One link of a generated chain: `Link<N>` would need 10,000 types, so the
/// chain is made of named registrations of one type instead.
final class ChainNode: Sendable {
  let next: ChainNode?
  init(next: ChainNode?) { self.next = next }
}

@Suite(.blocking) struct DeepChainTests {
  static let depth = 10_000

  func chainContainer(
    closingCycle: Bool, depth: Int = Self.depth, container: Container = Container()
  ) -> Container {
    for level in 0..<depth {
      let isLast = level == depth - 1
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

  /// The length of the chain of nodes starting at `node`.
  static func length(_ node: ChainNode?) -> Int {
    var node = node
    var length = 0
    while let current = node {
      length += 1
      node = current.next
    }
    return length
  }

  @Test(arguments: [64 << 10, 256 << 10])
  func aChainResolvesOnAThreadWithASmallStack(stackSize: Int) throws {
    // Hopping every 256 levels overflowed a 256 KiB stack (a level takes
    // about 1 KiB in release, 3-4 KiB in debug): the process died of
    // SIGSEGV. A 64 KiB stack has less than the margin from the start.
    let container = chainContainer(closingCycle: false, depth: 1_000)
    let length = onThread(stackSize: stackSize) {
      Self.length(try? container.resolve(ChainNode.self, name: "n0"))
    }
    #expect(length == 1_000)
  }

  @Test func aChainHopsWhenTheStackRunsLowNotEveryFewHundredLevels() throws {
    // 10,000 levels take 10-40 MiB of stack: a few 16 MiB helpers, not the
    // 39 that hopping every 256 levels took.
    let threads = HopThreads(limit: 64, stackSize: 16 << 20, spawn: HopThreads.startThread)
    let container = chainContainer(closingCycle: false, container: Container(hopThreads: threads))
    #expect(Self.length(try container.resolve(ChainNode.self, name: "n0")) == Self.depth)
    let hops = threads.statistics.admitted
    #expect(hops >= 1 && hops <= 10)
  }

  @Test func aHopTheSystemRefusesIsAResolutionError() throws {
    // Without a thread the caller used to wait for a helper that never ran.
    // The refusal is simulated: a real one needs an address-space limit
    // (`ulimit -v`), which would bind the whole test process.
    let threads = HopThreads(limit: 8, stackSize: 16 << 20) { _, _ in .failure(.init(errno: EAGAIN)) }
    let container = chainContainer(closingCycle: false, container: Container(hopThreads: threads))
    let error = try #require(throws: ResolutionError.self) {
      _ = try onThread(stackSize: 256 << 10) {
        Result { try container.resolve(ChainNode.self, name: "n0") }
      }?.get()
    }
    guard case .stackExhausted(let reason) = error.kind else {
      Issue.record("expected stackExhausted, got \(error.kind)")
      return
    }
    #expect(reason == .threadRefused(errno: EAGAIN))
    let depth = error.chain.count
    #expect(depth > 1 && depth < 256)
    #expect(
      error.summary
        == "The thread's stack was nearly full \(depth) resolutions deep, at PlugboardKitTests.ChainNode named "
        + "\"n\(depth - 1)\", and the chain could not continue on a helper thread: the system "
        + "refused to create a thread (Resource temporarily unavailable, errno 11).")
    #expect(
      error.action
        == "Allow the process more threads or address space (ulimit -u, ulimit -v, the cgroup's "
        + "pids.max), resolve from a thread with a larger stack, or make the chain shallower.")
    let lastLink = error.description.split(separator: "\n").first { $0.contains("✗") }
    #expect(lastLink?.hasPrefix("  → ChainNode named \"n\(depth - 1)\"  (registered at ") == true)
    #expect(lastLink?.hasSuffix("  ✗ out of stack)") == true)
  }

  @Test func aLoneChainIsNeverRefusedForWantOfHelpers() throws {
    // One helper of 256 KiB, and a chain from a 256 KiB thread that fills
    // it and needs more. No other chain holds any, so it takes them.
    let threads = HopThreads(limit: 1, stackSize: 256 << 10, spawn: HopThreads.startThread)
    let container = chainContainer(
      closingCycle: false, depth: 1_000, container: Container(hopThreads: threads))
    let outcome = onThread(stackSize: 256 << 10) {
      Result { Self.length(try container.resolve(ChainNode.self, name: "n0")) }
    }
    #expect(try outcome?.get() == 1_000)
    let statistics = threads.statistics
    #expect(statistics.admitted > 1)
    #expect(statistics.beyondLimit == statistics.admitted - 1)
    #expect(statistics.running == 0)
  }

  @Test func theOldestChainCompletesWhenEveryChainNeedsAnotherHelper() throws {
    // Eight chains against six helpers, under the thread sanitizer, each
    // held a helper and was refused the next: none completed. Here two
    // chains of 1,000 levels hold one each of two helpers of 256 KiB, then
    // both need more.
    let threads = HopThreads(limit: 2, stackSize: 256 << 10, spawn: HopThreads.startThread)
    let container = Container(hopThreads: threads)
    let aHolds = DispatchSemaphore(value: 0)
    let bHolds = DispatchSemaphore(value: 0)
    let go = DispatchSemaphore(value: 0)
    let bEnded = DispatchSemaphore(value: 0)
    let a = HelperWatch(onHelper: [
      1: {
        aHolds.signal()
        go.wait()
      },
      // a, the older chain, holds its second helper until b has ended, so
      // b's next hop comes while a still holds both.
      2: { bEnded.wait() },
    ])
    let b = HelperWatch(onHelper: [
      1: {
        bHolds.signal()
        go.wait()
      }
    ])
    for (prefix, watch) in [("a", a), ("b", b)] {
      for level in 0..<1_000 {
        container.register(ChainNode.self, name: "\(prefix)\(level)") { r in
          watch.sawLevel()
          let next = level == 999 ? nil : try r.resolve(ChainNode.self, name: "\(prefix)\(level + 1)")
          return ChainNode(next: next)
        }
      }
    }
    let outcomes = Locked([String: Result<Int, any Error>]())
    func start(_ prefix: String, then: @escaping @Sendable () -> Void) throws -> pthread_t {
      let started = HopThreads.startThread(stackSize: 256 << 10) {
        let outcome = Result { Self.length(try container.resolve(ChainNode.self, name: "\(prefix)0")) }
        outcomes.withLock { $0[prefix] = outcome }
        then()
      }
      guard case .success(let thread) = started else { throw CancellationError() }
      return thread
    }
    let aThread = try start("a") {}
    aHolds.wait()
    let bThread = try start("b") { bEnded.signal() }
    bHolds.wait()
    go.signal()
    go.signal()
    pthread_join(aThread, nil)
    pthread_join(bThread, nil)

    let (aOutcome, bOutcome) = outcomes.withLock { ($0["a"], $0["b"]) }
    #expect(try aOutcome?.get() == 1_000)
    guard case .failure(let error as ResolutionError) = bOutcome,
      case .stackExhausted(.helpersBusy(limit: 2)) = error.kind
    else {
      Issue.record("expected b to be refused a helper, got \(String(describing: bOutcome))")
      return
    }
    #expect(error.summary.hasSuffix("all 2 helper threads for deep chains are in use by other resolutions."))
    #expect(threads.statistics.beyondLimit >= 1)
    #expect(threads.statistics.running == 0)
  }

  @Test func concurrentDeepChainsStayWithinTheHelperLimitAndOneCompletes() throws {
    // Eight 10,000-deep resolutions at once used to start 2,973 threads;
    // later, under the thread sanitizer, all eight were refused helpers.
    // The most one chain can take: from a thread with almost no stack.
    let alone = HopThreads(limit: 64, stackSize: 16 << 20, spawn: HopThreads.startThread)
    let lone = chainContainer(closingCycle: false, container: Container(hopThreads: alone))
    _ = onThread(stackSize: 64 << 10) { try? lone.resolve(ChainNode.self, name: "n0") }
    let oneChain = alone.statistics.peak
    #expect(oneChain >= 1)

    let threads = HopThreads(limit: 6, stackSize: 16 << 20, spawn: HopThreads.startThread)
    let container = chainContainer(closingCycle: false, container: Container(hopThreads: threads))
    let outcomes = Locked([String]())
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      do {
        let length = Self.length(try container.resolve(ChainNode.self, name: "n0"))
        outcomes.withLock { $0.append(length == Self.depth ? "resolved" : "short") }
      } catch let error as ResolutionError {
        if case .stackExhausted(.helpersBusy(limit: 6)) = error.kind {
          outcomes.withLock { $0.append("busy") }
        } else {
          outcomes.withLock { $0.append("\(error.kind)") }
        }
      } catch {
        outcomes.withLock { $0.append("\(error)") }
      }
    }
    #expect(outcomes.withLock { $0.allSatisfy { $0 == "resolved" || $0 == "busy" } })
    #expect(outcomes.withLock { $0.contains("resolved") })
    // Only the oldest chain goes beyond the limit.
    #expect(threads.statistics.peak <= 6 + oneChain)
    #expect(threads.statistics.running == 0)
  }
}

/// Follows one chain across the threads it runs on: the first time it
/// reaches its n-th helper thread (the caller's thread is the 0th), it runs
/// `onHelper[n]` there.
private final class HelperWatch: Sendable {
  let onHelper: [Int: @Sendable () -> Void]
  private let seen = Locked([pthread_t]())

  init(onHelper: [Int: @Sendable () -> Void]) { self.onHelper = onHelper }

  func sawLevel() {
    let me = pthread_self()
    // A chain's helpers are nested, all alive until it ends, so a thread
    // identifier is not reused within one chain.
    let index = seen.withLock { seen -> Int? in
      guard !seen.contains(where: { pthread_equal($0, me) != 0 }) else { return nil }
      seen.append(me)
      return seen.count - 1
    }
    if let index, let action = onHelper[index] { action() }
  }
}
