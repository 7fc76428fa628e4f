import Dispatch
import PlugboardBenchSupport
import PlugboardKit
import PlugboardTestSupport
import Synchronization
import Testing

/// Registry snapshots replaced by registering between resolutions are
/// freed, also while other threads resolve (this suite matches the
/// `ConcurrencyTests` filter, so it runs under `--sanitize=thread` in CI).
@Suite(.blocking) struct SnapshotConcurrencyTests {
  final class Service: Sendable {}

  /// Bytes the C heap has handed out and not yet taken back (the
  /// benchmark's own probe; zero under ThreadSanitizer's allocator).
  static func heapInUse() -> Int { Int(plugboard_bench_heap_in_use()) }

  @Test func registeringBetweenResolutionsKeepsTheHeapFlat() throws {
    let container = Container()
    // Grown tables and the first snapshots are not what is measured.
    for _ in 0..<100 {
      container.register(Service.self) { _ in Service() }
      _ = try container.resolve(Service.self)
    }
    let before = Self.heapInUse()
    for _ in 0..<3_000 {
      container.register(Service.self) { _ in Service() }
      _ = try container.resolve(Service.self)
    }
    let grown = Self.heapInUse() - before
    // Each round keeps its registration and the duplicate it records (a few
    // hundred bytes, about 1 MiB in all); keeping every snapshot kept about
    // 3,000 tables sized for every registration ever made: hundreds of MiB.
    #expect(grown < 48 << 20, "the heap grew by \(grown >> 20) MiB")
    #expect(container.duplicateRegistrations.count == 3_099)
  }

  @Test func everyReplacementIsStillReportedInOrder() throws {
    let container = Container()
    container.register(Service.self, line: 1) { _ in Service() }
    _ = try container.resolve(Service.self)
    container.register(Service.self, line: 2) { _ in Service() }
    _ = try container.resolve(Service.self)
    container.register(Service.self, line: 3) { _ in Service() }.inProfiles("mock")
    container.register(Service.self, line: 4) { _ in Service() }
    _ = try container.resolve(Service.self)
    #expect(
      container.duplicateRegistrations.map { [$0.winner.line, $0.replaced.line] } == [[2, 1], [4, 2]])
    container.activeProfile = "mock"
    #expect(
      container.duplicateRegistrations.map { [$0.winner.line, $0.replaced.line] } == [
        [2, 1], [3, 2], [4, 3],
      ])
    #expect(container.registrations.map(\.site.line) == [4])
  }

  @Test func resolvingWhileAnotherThreadReRegisters() throws {
    let container = Container()
    container.register(Service.self) { _ in Service() }
    let failures = Atomic(0)
    let done = Atomic(false)
    DispatchQueue.concurrentPerform(iterations: 4) { index in
      if index == 0 {
        for _ in 0..<2_000 {
          container.register(Service.self) { _ in Service() }
          if (try? container.resolve(Service.self)) == nil { failures.add(1, ordering: .relaxed) }
        }
        done.store(true, ordering: .releasing)
      } else {
        while !done.load(ordering: .acquiring) {
          if (try? container.resolve(Service.self)) == nil { failures.add(1, ordering: .relaxed) }
        }
      }
    }
    #expect(failures.load(ordering: .relaxed) == 0)
    #expect(container.duplicateRegistrations.count == 2_000)
  }

  /// New names and types published into the tables in place, and the
  /// registries built when the tables run out of room, while other threads
  /// resolve what was registered before.
  @Test func resolvingWhileAnotherThreadRegistersNewNames() throws {
    let container = Container()
    container.register(Service.self, name: "s0") { _ in Service() }
    container.register(Service.self) { _ in Service() }
    let failures = Atomic(0)
    let registered = Atomic(1)
    DispatchQueue.concurrentPerform(iterations: 4) { index in
      if index == 0 {
        for round in 1..<2_000 {
          container.register(Service.self, name: "s\(round)") { _ in Service() }
          if (try? container.resolve(Service.self, name: "s\(round)")) == nil {
            failures.add(1, ordering: .relaxed)
          }
          registered.store(round + 1, ordering: .releasing)
        }
      } else {
        var round = 0
        while true {
          let upTo = registered.load(ordering: .acquiring)
          if (try? container.resolve(Service.self, name: "s\(round % upTo)")) == nil
            || (try? container.resolve(Service.self)) == nil
          {
            failures.add(1, ordering: .relaxed)
          }
          if upTo == 2_000 { break }
          round += 1
        }
      }
    }
    #expect(failures.load(ordering: .relaxed) == 0)
    #expect(container.registrations.count == 2_001)
  }
}
