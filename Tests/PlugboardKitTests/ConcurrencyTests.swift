import Dispatch
import Foundation
import PlugboardKit
import PlugboardTestSupport
import Synchronization
import Testing

/// Stress and ordering tests for resolving from many threads. They also run
/// under `swift test --sanitize=thread` in CI.
@Suite(.blocking) struct ConcurrencyTests {
  static let threads = 8
  static let resolvesPerThread = 100_000

  final class Counters: Sendable {
    let singleton = Atomic(0)
    let transient = Atomic(0)
    let named = Atomic(0)
    let withArgument = Atomic(0)
  }

  protocol Service: AnyObject, Sendable {}
  final class Singleton: Service {}
  final class Transient: Service {
    let singleton: Singleton
    init(singleton: Singleton) { self.singleton = singleton }
  }

  @Test func mixedResolvesFromEightThreads() throws {
    let counters = Counters()
    let container = Container()
    container.register(Singleton.self) { _ in
      counters.singleton.add(1, ordering: .relaxed)
      return Singleton()
    }.inObjectScope(.container)
    container.register(Transient.self) { r in
      counters.transient.add(1, ordering: .relaxed)
      return try Transient(singleton: r.resolve())
    }.inObjectScope(.transient)
    container.register(Service.self, name: "graph") { r in
      counters.named.add(1, ordering: .relaxed)
      return try r.resolve(Transient.self)
    }
    container.register(Service.self) { (r, seed: Int) in
      counters.withArgument.add(1, ordering: .relaxed)
      return try r.resolve(Transient.self)
    }

    let failures = Atomic(0)
    let singletons = Locked(Set<ObjectIdentifier>())
    DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
      var seen = Set<ObjectIdentifier>()
      for index in 0..<Self.resolvesPerThread {
        do {
          switch index % 4 {
          case 0: seen.insert(ObjectIdentifier(try container.resolve(Singleton.self)))
          case 1: seen.insert(ObjectIdentifier(try container.resolve(Transient.self).singleton))
          case 2: _ = try container.resolve(Service.self, name: "graph")
          default: _ = try container.resolve(Service.self, argument: thread)
          }
        } catch {
          failures.add(1, ordering: .relaxed)
        }
      }
      singletons.withLock { $0.formUnion(seen) }
    }

    let perKind = Self.threads * Self.resolvesPerThread / 4
    #expect(failures.load(ordering: .relaxed) == 0)
    #expect(counters.singleton.load(ordering: .relaxed) == 1)
    #expect(singletons.withLock { $0.count } == 1)
    // Transient instances are made for kinds 1, 2 and 3.
    #expect(counters.transient.load(ordering: .relaxed) == perKind * 3)
    #expect(counters.named.load(ordering: .relaxed) == perKind)
    #expect(counters.withArgument.load(ordering: .relaxed) == perKind)
  }

  @Test func aContainerInstanceIsMadeOnceHoweverManyRace() throws {
    for _ in 0..<50 {
      let made = Atomic(0)
      let container = Container()
      container.register(Singleton.self) { _ in
        made.add(1, ordering: .relaxed)
        return Singleton()
      }.inObjectScope(.container)
      let instances = Locked(Set<ObjectIdentifier>())
      // Real threads (not a pool the size of the machine) so that all of
      // them are waiting at the start line together.
      let start = StartLine(runners: Self.threads)
      let finished = DispatchGroup()
      for _ in 0..<Self.threads {
        finished.enter()
        Thread {
          start.arriveAndWait()
          if let instance = try? container.resolve(Singleton.self) {
            instances.withLock { _ = $0.insert(ObjectIdentifier(instance)) }
          }
          finished.leave()
        }.start()
      }
      finished.wait()
      #expect(made.load(ordering: .relaxed) == 1)
      #expect(instances.withLock { $0.count } == 1)
    }
  }

  @Test func aSlowFactoryDoesNotBlockUnrelatedServices() throws {
    // The slow factory can finish only after another thread has resolved an
    // unrelated service; a global lock around factories would deadlock here,
    // so the wait has a generous bound that turns a hang into a failure.
    let unrelatedResolved = DispatchSemaphore(value: 0)
    let slowStarted = DispatchSemaphore(value: 0)
    let timedOut = Atomic(false)
    let container = Container()
    container.register(Singleton.self) { _ in
      slowStarted.signal()
      if unrelatedResolved.wait(timeout: .now() + 30) == .timedOut {
        timedOut.store(true, ordering: .relaxed)
      }
      return Singleton()
    }.inObjectScope(.container)
    container.register(Transient.self) { _ in Transient(singleton: Singleton()) }

    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) { _ = try? container.resolve(Singleton.self) }
    slowStarted.wait()
    let unrelated = try container.resolve(Transient.self)
    unrelatedResolved.signal()
    group.wait()
    #expect(timedOut.load(ordering: .relaxed) == false)
    _ = unrelated
  }

  @Test func recursiveResolutionFromFactoriesDoesNotDeadlock() throws {
    final class Top: Sendable {
      let middle: Transient
      init(middle: Transient) { self.middle = middle }
    }
    let container = Container()
    container.register(Singleton.self) { _ in Singleton() }.inObjectScope(.container)
    container.register(Transient.self) { r in try Transient(singleton: r.resolve()) }
      .inObjectScope(.container)
    container.register(Top.self) { r in try Top(middle: r.resolve()) }.inObjectScope(.container)
    let tops = Locked(Set<ObjectIdentifier>())
    DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
      for _ in 0..<1_000 {
        if let top = try? container.resolve(Top.self) {
          tops.withLock { _ = $0.insert(ObjectIdentifier(top)) }
        }
      }
    }
    #expect(tops.withLock { $0.count } == 1)
  }

  final class CycleA: Sendable {}
  final class CycleB: Sendable {}
  final class CycleC: Sendable {}

  /// Registers `count` `.container` services (CycleA, CycleB, CycleC) that
  /// each need the next, the last needing the first. Each factory, the
  /// first time it runs, waits until every service's factory has started,
  /// so that each thread owns one instance before asking for the next.
  static func cycleContainer(count: Int) -> Container {
    let container = Container()
    let start = StartLine(runners: count)
    func register<Service: AnyObject>(
      _ type: Service.Type, _ make: @escaping @Sendable () -> Service, next: Int
    ) {
      let first = Atomic(true)
      container.register(type) { r in
        if first.exchange(false, ordering: .relaxed) { start.arriveAndWait() }
        _ = try Self.resolve(next, from: r)
        return make()
      }.inObjectScope(.container)
    }
    register(CycleA.self, { CycleA() }, next: 1 % count)
    register(CycleB.self, { CycleB() }, next: 2 % count)
    if count == 3 { register(CycleC.self, { CycleC() }, next: 0) }
    return container
  }

  /// Resolves CycleA, CycleB or CycleC.
  static func resolve(_ index: Int, from container: Container) throws -> AnyObject {
    switch index {
    case 0: try container.resolve(CycleA.self)
    case 1: try container.resolve(CycleB.self)
    default: try container.resolve(CycleC.self)
    }
  }

  /// Resolves each of `count` services on a thread of its own, all at once, and returns what each
  /// thread got: a cycle's summary and notes, or what else happened. A
  /// deadlock the coordinator misses fails the test (after a generous bound)
  /// instead of hanging it.
  static func resolveOnThreads(count: Int) -> [String]? {
    let container = cycleContainer(count: count)
    let outcomes = Locked([String]())
    let finished = DispatchGroup()
    for index in 0..<count {
      finished.enter()
      Thread {
        do {
          _ = try resolve(index, from: container)
          outcomes.withLock { $0.append("resolved") }
        } catch let error as ResolutionError {
          let text = ([error.summary] + error.notes).joined(separator: " | ")
          outcomes.withLock { $0.append(text) }
        } catch {
          outcomes.withLock { $0.append("\(error)") }
        }
        finished.leave()
      }.start()
    }
    guard finished.wait(timeout: .now() + 120) == .success else {
      Issue.record("the threads deadlocked")
      return nil
    }
    return outcomes.withLock { $0 }.sorted()
  }

  @Test func aCycleAcrossTwoThreadsIsReportedClosedOnBothThreads() throws {
    // One thread finds the deadlock in the coordinator; the other then owns
    // both links and finds an ordinary cycle in its own chain. Both used to
    // report a cycle, the first as "CycleB → CycleA." (its own chain).
    let outcomes = try #require(Self.resolveOnThreads(count: 2))
    let acrossThreads =
      " | The cycle crosses 2 threads: another thread is making CycleA and waits for CycleB, "
      + "which this thread is making; waiting for one another, they would never finish."
    let acrossThreadsFromA =
      " | The cycle crosses 2 threads: another thread is making CycleB and waits for CycleA, "
      + "which this thread is making; waiting for one another, they would never finish."
    #expect(
      outcomes == [
        "Dependency cycle: CycleA → CycleB → CycleA.",
        "Dependency cycle: CycleB → CycleA → CycleB." + acrossThreads,
      ]
        || outcomes == [
          "Dependency cycle: CycleA → CycleB → CycleA." + acrossThreadsFromA,
          "Dependency cycle: CycleB → CycleA → CycleB.",
        ])
  }

  @Test func aCycleAcrossThreeThreadsIsReportedWithTheWholePath() throws {
    let outcomes = try #require(Self.resolveOnThreads(count: 3))
    #expect(outcomes.count == 3)
    // Each thread reports the cycle starting from the service it asked for.
    let paths = outcomes.map { $0.components(separatedBy: " | ")[0] }
    #expect(
      paths == [
        "Dependency cycle: CycleA → CycleB → CycleC → CycleA.",
        "Dependency cycle: CycleB → CycleC → CycleA → CycleB.",
        "Dependency cycle: CycleC → CycleA → CycleB → CycleC.",
      ])
    // The first thread to find the deadlock sees all three threads in it.
    #expect(outcomes.contains { $0.contains("The cycle crosses 3 threads: another thread is making ") })
  }

  @Test func registeringWhileResolvingIsSafe() throws {
    let container = Container()
    container.register(Singleton.self) { _ in Singleton() }.inObjectScope(.container)
    let failures = Atomic(0)
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      for index in 0..<2_000 {
        if thread == 0 {
          container.register(Int.self, name: "n\(index)") { _ in index }
        } else if (try? container.resolve(Singleton.self)) == nil {
          failures.add(1, ordering: .relaxed)
        }
      }
    }
    #expect(failures.load(ordering: .relaxed) == 0)
    #expect(try container.resolve(Int.self, name: "n1999") == 1999)
  }
}

/// Releases a fixed number of threads at once.
final class StartLine: Sendable {
  private let condition = NSCondition()
  private let waiting = Locked(0)
  private let runners: Int

  init(runners: Int) { self.runners = runners }

  func arriveAndWait() {
    condition.lock()
    let arrived = waiting.withLock { count -> Int in
      count += 1
      return count
    }
    if arrived == runners {
      condition.broadcast()
    } else {
      while waiting.withLock({ $0 }) < runners { condition.wait() }
    }
    condition.unlock()
  }
}

/// A lock-protected value shared by reference, behind an `NSLock`: the
/// thread sanitizer follows `pthread_mutex` through its interceptors, but
/// not `Synchronization.Mutex`, whose lock lives in a library built without
/// instrumentation, so every access under a `Mutex` looks like a race to it.
final class Locked<Value: Sendable>: @unchecked Sendable {
  // `value` is only touched with `lock` held.
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
  }
}
