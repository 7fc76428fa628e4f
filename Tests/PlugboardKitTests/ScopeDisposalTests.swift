import Dispatch
import Foundation
import PlugboardKit
import PlugboardTestSupport
import Synchronization
import Testing

/// What the dispose hooks saw, in the order they ran.
private final class DisposalLog: Sendable {
  private let entries = Mutex<[String]>([])
  func append(_ entry: String) { entries.withLock { $0.append(entry) } }
  var all: [String] { entries.withLock { $0 } }
}

/// A `.scoped` service that knows its name and the scope-mates it was
/// made from.
final class ScopedUnit: Sendable {
  let name: String
  let parts: [ScopedUnit]
  init(_ name: String, parts: [ScopedUnit] = []) {
    self.name = name
    self.parts = parts
  }
}

/// A logger that keeps its lines, for failures a reset cannot throw.
private final class Recorder: Logger {
  let minimumLevel = LogLevel.trace
  private let lines = Mutex<[String]>([])
  func write(_ level: LogLevel, _ message: String) { lines.withLock { $0.append("\(level): \(message)") } }
  var written: [String] { lines.withLock { $0 } }
}

/// Runs `body` on two threads of their own at once (not a pool's, which
/// on two cores may run them one after the other) and waits for both.
private func onTwoThreads(_ body: @escaping @Sendable () -> Void) {
  Blocking.requireBlockingThread("Waiting for two threads")
  let done = DispatchSemaphore(value: 0)
  for _ in 0..<2 {
    Thread {
      body()
      done.signal()
    }.start()
  }
  done.wait()
  done.wait()
}

extension CustomScope {
  fileprivate static let visit = CustomScope("visit")
}

/// Per-scope instances (`.scoped`, `makeScope`, `withScope`) and their
/// disposal (`onDispose`), and disposal on `resetObjectScope`.
@Suite struct ScopeDisposalTests {
  /// A: made from B; C: alone. Each hook logs the instance's name.
  private func units(logging log: DisposalLog) -> Container {
    let container = Container()
    container.register(ScopedUnit.self, name: "A") { r in
      ScopedUnit("A", parts: [try r.resolve(ScopedUnit.self, name: "B")])
    }
    .inObjectScope(.scoped)
    .onDispose { log.append($0.name) }
    for name in ["B", "C"] {
      container.register(ScopedUnit.self, name: name) { _ in ScopedUnit(name) }
        .inObjectScope(.scoped)
        .onDispose { log.append($0.name) }
    }
    return container
  }

  @Test("a scope's instances disposed in reverse order, once, including when the scope's body throws")
  func disposedInReverseOnceAlsoOnThrow() throws {
    let log = DisposalLog()
    let container = units(logging: log)
    var kept: ServiceScope?
    #expect(throws: Failure.self) {
      try container.withScope { scope in
        kept = scope
        let a = try scope.resolve(ScopedUnit.self, name: "A")
        #expect(try scope.resolve(ScopedUnit.self, name: "B") === a.parts[0])
        _ = try scope.resolve(ScopedUnit.self, name: "C")
        #expect(try scope.resolve(ScopedUnit.self, name: "A") === a)
        throw Failure(reason: "the request failed")
      }
    }
    // B was made first (for A), then A, then C: disposed newest first.
    #expect(log.all == ["C", "A", "B"])
    #expect(kept?.hasEnded == true)
    try kept?.end()
    #expect(log.all == ["C", "A", "B"])

    // Returning normally disposes the same way.
    try container.withScope { scope in
      _ = try scope.resolve(ScopedUnit.self, name: "C")
      _ = try scope.resolve(ScopedUnit.self, name: "A")
    }
    #expect(log.all == ["C", "A", "B", "A", "B", "C"])
  }

  @Test(.blocking) func endTwiceFromTwoThreadsDisposesOnce() throws {
    let log = DisposalLog()
    let container = units(logging: log)
    let scope = container.makeScope()
    _ = try scope.resolve(ScopedUnit.self, name: "A")
    onTwoThreads { try? scope.end() }
    #expect(log.all == ["A", "B"])
  }

  @Test func eachScopeHasItsOwnInstanceAndSharesTheContainers() throws {
    let container = Container()
    container.register(ScopedUnit.self) { _ in ScopedUnit("request") }.inObjectScope(.scoped)
    container.register(Shared.self) { _ in Shared() }.inObjectScope(.container)
    let first = container.makeScope()
    let second = container.makeScope()
    #expect(try first.resolve(ScopedUnit.self) === first.resolve(ScopedUnit.self))
    #expect(try first.resolve(ScopedUnit.self) !== second.resolve(ScopedUnit.self))
    #expect(try first.resolve(Shared.self) === second.resolve(Shared.self))
    #expect(try first.resolve(Shared.self) === container.resolve(Shared.self))
    // A `.graph` service made in the scope gets the scope's instance.
    container.register(ScopedUnit.self, name: "holder") { r in ScopedUnit("holder", parts: [try r.resolve()])
    }
    #expect(try first.resolve(ScopedUnit.self, name: "holder").parts[0] === first.resolve(ScopedUnit.self))
    try first.end()
    try second.end()
  }

  @Test func concurrentResolvesInOneScopeMakeOneInstance() async throws {
    let container = Container()
    let made = Atomic(0)
    container.register(Counted.self) { _ in Counted(serial: made.add(1, ordering: .relaxed).newValue) }
      .inObjectScope(.scoped)
    let scope = container.makeScope()
    let serials = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<32 { group.addTask { try scope.resolve(Counted.self).serial } }
      return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
    }
    #expect(serials == [1])
    #expect(made.load(ordering: .relaxed) == 1)
    try await scope.end()
  }

  /// Two scopes making the same registration at once neither wait for
  /// each other nor take it for a cycle: each factory waits until the
  /// other has started.
  @Test(.blocking) func scopesMakeTheSameRegistrationIndependently() throws {
    let container = Container()
    let started = DispatchSemaphore(value: 0)
    let arrivals = Atomic(0)
    container.register(ScopedUnit.self) { _ in
      if arrivals.add(1, ordering: .relaxed).newValue == 1 {
        // The first waits for the second scope's construction to start.
        #expect(started.wait(timeout: .now() + 60) == .success)
      } else {
        started.signal()
      }
      return ScopedUnit("request")
    }
    .inObjectScope(.scoped)
    let units = Mutex<[ObjectIdentifier]>([])
    onTwoThreads {
      let scope = container.makeScope()
      if let unit = try? scope.resolve(ScopedUnit.self) {
        units.withLock { $0.append(ObjectIdentifier(unit)) }
      }
    }
    #expect(Set(units.withLock { $0 }).count == 2)
  }

  /// `end()` while an instance is being made waits for it, then disposes
  /// it too; the resolution that made it still gets it.
  @Test(.blocking) func endWhileConstructingWaitsAndDisposesIt() throws {
    let log = DisposalLog()
    let container = Container()
    let scope = container.makeScope()
    let constructing = DispatchSemaphore(value: 0)
    container.register(ScopedUnit.self) { _ in
      constructing.signal()
      // Finish only once `end()` has been called, so it has to wait.
      while !scope.hasEnded {}
      return ScopedUnit("slow")
    }
    .inObjectScope(.scoped)
    .onDispose { log.append($0.name) }

    let made = Mutex<ScopedUnit?>(nil)
    let resolved = DispatchSemaphore(value: 0)
    Thread {
      let unit = try? scope.resolve(ScopedUnit.self)
      made.withLock { $0 = unit }
      resolved.signal()
    }.start()
    constructing.wait()
    try scope.end()
    #expect(log.all == ["slow"])
    resolved.wait()
    #expect(made.withLock { $0?.name } == "slow")

    #expect(throws: ResolutionError.self) { try scope.resolve(ScopedUnit.self) }
  }

  @Test func resolvingFromAnEndedScopeNamesTheScope() throws {
    let container = Container()
    container.register(ScopedUnit.self, file: "App/Request.swift", line: 4) { _ in ScopedUnit("request") }
      .inObjectScope(.scoped)
    let scope = container.makeScope()
    try scope.end()
    let error = try #require(throws: ResolutionError.self) { try scope.resolve(ScopedUnit.self) }
    #expect(
      error.description == """
        error: cannot resolve PlugboardKitTests.ScopedUnit

        What went wrong:
          PlugboardKitTests.ScopedUnit is registered .scoped (one instance per scope), and was resolved from \
        a scope that has ended; its instances have been disposed.

        Chain:
          ScopedUnit  (registered at App/Request.swift:4  ✗ scoped, its scope has ended)

        Action:
          Resolve .scoped services only while their scope lives (before end(), or inside withScope's \
        body), and make a new scope for new work: container.makeScope().
        """)
  }

  @Test func resolvingScopedOutsideAScopeNamesTheFix() throws {
    let container = Container()
    container.register(ScopedUnit.self, file: "App/Request.swift", line: 4) { _ in ScopedUnit("request") }
      .inObjectScope(.scoped)
    let error = try #require(throws: ResolutionError.self) { try container.resolve(ScopedUnit.self) }
    #expect(
      error.description == """
        error: cannot resolve PlugboardKitTests.ScopedUnit

        What went wrong:
          PlugboardKitTests.ScopedUnit is registered .scoped (one instance per scope), and was resolved \
        outside any scope.

        Chain:
          ScopedUnit  (registered at App/Request.swift:4  ✗ scoped, outside any scope)

        Action:
          Resolve it from a scope, try container.withScope { scope in try scope.resolve(ScopedUnit.self) }, \
        or register ScopedUnit .container if one instance for the whole container is right.
        """)
  }

  /// A `.container` service resolves from the container that registered
  /// it, even when first asked for in a scope: a `.scoped` dependency is
  /// out of its reach, and the error says why.
  @Test func aContainerServiceCannotHoldAScopedOne() throws {
    let container = Container()
    container.register(ScopedUnit.self, name: "cache") { r in ScopedUnit("cache", parts: [try r.resolve()]) }
      .inObjectScope(.container)
    container.register(ScopedUnit.self) { _ in ScopedUnit("request") }.inObjectScope(.scoped)
    let error = try #require(throws: ResolutionError.self) {
      try container.withScope { try $0.resolve(ScopedUnit.self, name: "cache") }
    }
    #expect(
      error.summary
        == "PlugboardKitTests.ScopedUnit is registered .scoped (one instance per scope), and was resolved "
        + "outside any scope. ScopedUnit named \"cache\" is .container: made once for the container's life, "
        + "it resolves its dependencies from the container that registered it, never from a scope.")
    #expect(
      error.action
        == "Resolve it from a scope, try container.withScope { scope in try scope.resolve(ScopedUnit.self) }, "
        + "or register ScopedUnit named \"cache\" .scoped or .transient, or register ScopedUnit .container if one "
        + "instance for the whole container is right.")
  }

  @Test func resetDisposesWhatItDrops() throws {
    let log = DisposalLog()
    let container = Container()
    container.register(ScopedUnit.self, name: "pool") { _ in ScopedUnit("pool") }
      .inObjectScope(.container)
      .onDispose { log.append($0.name) }
    container.register(ScopedUnit.self, name: "cart") { _ in ScopedUnit("cart") }
      .inObjectScope(.visit)
      .onDispose { log.append($0.name) }
    container.resetObjectScope(.container)
    container.resetObjectScope(.visit)
    #expect(log.all.isEmpty)

    let pool = try container.resolve(ScopedUnit.self, name: "pool")
    _ = try container.resolve(ScopedUnit.self, name: "cart")
    container.resetObjectScope(.container)
    container.resetObjectScope(.container)
    #expect(log.all == ["pool"])
    container.resetObjectScope(.visit)
    container.resetObjectScope(.visit)
    #expect(log.all == ["pool", "cart"])
    #expect(try container.resolve(ScopedUnit.self, name: "pool") !== pool)
  }

  @Test func aResetReportsAFailedHookToTheLogger() throws {
    let recorder = Recorder()
    let container = Container()
    container.register((any Logger).self) { _ in recorder }.inObjectScope(.container)
    container.attributing(to: "Shop") {
      container.register(ScopedUnit.self, file: "Shop/Cart.swift", line: 9) { _ in ScopedUnit("cart") }
        .inObjectScope(.visit)
        .onDispose { _ in throw Failure(reason: "the cart could not be saved") }
    }
    _ = try container.resolve(ScopedUnit.self)
    container.resetObjectScope(.visit)
    #expect(
      recorder.written == [
        "error: plugin 'Shop': the dispose hook of ScopedUnit (Shop/Cart.swift:9) threw: the cart could not be saved"
      ])
  }

  @Test func aFailedHookIsReportedWithItsRegistrationAndTheOthersStillRun() throws {
    let log = DisposalLog()
    let container = Container()
    container.attributing(to: "Orders") {
      container.register(ScopedUnit.self, name: "transaction", file: "Orders/Assembly.swift", line: 12) { _ in
        ScopedUnit("transaction")
      }
      .inObjectScope(.scoped)
      .onDispose { _ in throw Failure(reason: "deadlock detected") }
    }
    container.register(ScopedUnit.self, name: "log") { _ in ScopedUnit("log") }
      .inObjectScope(.scoped)
      .onDispose { log.append($0.name) }
    let error = try #require(throws: ScopeDisposalError.self) {
      try container.withScope { scope in
        _ = try scope.resolve(ScopedUnit.self, name: "log")
        _ = try scope.resolve(ScopedUnit.self, name: "transaction")
      }
    }
    #expect(log.all == ["log"])
    #expect(
      error.description == """
        ending the scope, 1 of 2 dispose hooks failed:
          - plugin 'Orders': the dispose hook of ScopedUnit named "transaction" (Orders/Assembly.swift:12) threw: \
        deadlock detected
        """)
    #expect(error.failures.map(\.registration.site.plugin) == ["Orders"])
  }

  /// When the body throws and a hook fails too, the body's error is
  /// thrown unchanged and the hook's failure is logged: neither is lost.
  @Test func aBodyErrorWinsAndTheHooksFailureIsLogged() throws {
    let recorder = Recorder()
    let container = Container()
    container.register((any Logger).self) { _ in recorder }.inObjectScope(.container)
    container.register(ScopedUnit.self, file: "App/Upload.swift", line: 5) { _ in ScopedUnit("upload") }
      .inObjectScope(.scoped)
      .onDispose { _ in throw Failure(reason: "the upload could not be removed") }
    let error = try #require(throws: Failure.self) {
      try container.withScope { scope in
        _ = try scope.resolve(ScopedUnit.self)
        throw Failure(reason: "the request failed")
      }
    }
    #expect(error.reason == "the request failed")
    #expect(
      recorder.written == [
        "error: the dispose hook of ScopedUnit (App/Upload.swift:5) threw: the upload could not be removed"
      ])
  }

  /// The scope's resolver is a `Resolver`: a function written for the
  /// container gets the scope's instances through it.
  @Test func theResolverServesTheScope() throws {
    func handle(with resolver: Resolver) throws -> ScopedUnit { try resolver.resolve() }
    let container = Container()
    container.register(ScopedUnit.self) { _ in ScopedUnit("request") }.inObjectScope(.scoped)
    let (handled, resolved) = try container.withScope { scope in
      (try handle(with: scope.resolver), try scope.resolve(ScopedUnit.self))
    }
    #expect(handled === resolved)
  }

  @Test func asyncHooksAreAwaitedNewestFirst() async throws {
    let log = DisposalLog()
    let container = Container()
    // The order is under test, not the limit: generous for a busy machine.
    container.disposeTimeout = .seconds(600)
    for name in ["first", "second"] {
      container.register(ScopedUnit.self, name: name) { _ in ScopedUnit(name) }
        .inObjectScope(.scoped)
        .onDispose { unit in
          await Task.yield()
          log.append(unit.name)
        }
    }
    let names = try await container.withScope { scope in
      try ["first", "second"].map { try scope.resolve(ScopedUnit.self, name: $0).name }
    }
    #expect(names == ["first", "second"])
    #expect(log.all == ["second", "first"])
  }

  /// A hook that does not return within the scope's limit is cancelled
  /// and reported; the next one still runs. The limit applies to each
  /// hook, the quick one too: a second is far beyond its needs on a busy
  /// machine, and the stuck one takes just that long.
  @Test func aSlowAsyncHookTimesOut() async throws {
    let log = DisposalLog()
    let container = Container()
    container.register(ScopedUnit.self, name: "stuck", file: "App/Stuck.swift", line: 7) { _ in
      ScopedUnit("stuck")
    }
    .inObjectScope(.scoped)
    .onDispose { _ in try await Task.sleep(for: .seconds(3_600)) }
    container.register(ScopedUnit.self, name: "quick") { _ in ScopedUnit("quick") }
      .inObjectScope(.scoped)
      .onDispose { log.append($0.name) }
    let scope = container.makeScope(disposeTimeout: .seconds(1))
    _ = try scope.resolve(ScopedUnit.self, name: "quick")
    _ = try scope.resolve(ScopedUnit.self, name: "stuck")
    let error = try await #require(throws: ScopeDisposalError.self) { try await scope.end() }
    #expect(log.all == ["quick"])
    #expect(
      error.failures.map(\.description) == [
        "the dispose hook of ScopedUnit named \"stuck\" (App/Stuck.swift:7) did not finish within 1.0 seconds "
          + "and was cancelled (if it is only slow, give the scope a longer disposeTimeout)"
      ])
  }

  /// A scope ended synchronously cannot await an async hook, and says so.
  @Test func aSynchronousEndReportsAnAsyncHook() throws {
    let container = Container()
    container.register(ScopedUnit.self, file: "App/Upload.swift", line: 3) { _ in ScopedUnit("upload") }
      .inObjectScope(.scoped)
      .onDispose { _ in await Task.yield() }
    let scope = container.makeScope()
    _ = try scope.resolve(ScopedUnit.self)
    let error = try #require(throws: ScopeDisposalError.self) { try scope.end() }
    #expect(
      error.failures.map(\.description) == [
        "the dispose hook of ScopedUnit (App/Upload.swift:3) did not run: it is async, and the scope was ended "
          + "synchronously; end it with `await scope.end()`, or use `await container.withScope { … }`"
      ])
  }

  @Test func theScopedScopeIsListedByName() {
    let container = Container()
    container.register(ScopedUnit.self, file: "App/Request.swift", line: 2) { _ in ScopedUnit("request") }
      .inObjectScope(.scoped)
    #expect(container.registrations.map(\.scope) == [.scoped])
    #expect(ObjectScope.scoped.description == "scoped")
  }
}
