import Synchronization
import Testing

@testable import PlugboardKit

/// Async factories (`{ r async throws in … }`) resolved with `try await`.
@Suite struct AsyncResolutionTests {
  final class Database: Sendable {
    static func connect(counting connections: Counter) async -> Database {
      await Task.yield()
      _ = connections.next()
      return Database()
    }
  }
  final class Repository: Sendable {
    let database: Database
    init(database: Database) { self.database = database }
  }
  final class Clock: Sendable {}
  final class Report: Sendable {
    let first: Clock
    let second: Clock
    init(first: Clock, second: Clock) {
      self.first = first
      self.second = second
    }
  }
  final class Counter: Sendable {
    let count = Atomic(0)
    func next() -> Int { count.add(1, ordering: .relaxed).newValue }
  }
  struct Refused: Error, CustomStringConvertible {
    var description: String { "connection refused" }
  }

  @Test func anAsyncContainerFactoryIsAwaitedOnce() async throws {
    let connections = Counter()
    let container = Container()
    container.register(Database.self) { _ in await Database.connect(counting: connections) }
      .inObjectScope(.container)
    container.register(Repository.self) { r async throws in Repository(database: try await r.resolve()) }
    let first = try await container.asyncResolver.resolve(Repository.self)
    let second: Repository = try await container.asyncResolver.resolve()
    #expect(first !== second)
    #expect(first.database === second.database)
    #expect(connections.count.load(ordering: .relaxed) == 1)
  }

  /// `.scoped` with an async factory: one instance per scope however
  /// many tasks await it at once, disposed when the scope ends, and an
  /// error outside any scope.
  @Test func anAsyncScopedFactoryIsAwaitedOncePerScopeAndDisposed() async throws {
    let connections = Counter()
    let disposed = Counter()
    let container = Container()
    container.register(Database.self) { _ in await Database.connect(counting: connections) }
      .inObjectScope(.scoped)
      .onDispose { _ in _ = disposed.next() }
    let scope = container.makeScope()
    let resolver = scope.resolver.asyncResolver
    let made = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
      for _ in 0..<32 { group.addTask { ObjectIdentifier(try await resolver.resolve(Database.self)) } }
      return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
    }
    #expect(made.count == 1)
    #expect(connections.count.load(ordering: .relaxed) == 1)
    let other = container.makeScope()
    let another = try await other.resolver.asyncResolver.resolve(Database.self)
    #expect(!made.contains(ObjectIdentifier(another)))
    #expect(connections.count.load(ordering: .relaxed) == 2)
    try await scope.end()
    try await other.end()
    #expect(disposed.count.load(ordering: .relaxed) == 2)
    let outside = try await #require(throws: ResolutionError.self) {
      try await container.asyncResolver.resolve(Database.self)
    }
    guard case .outsideScope(scopeEnded: false) = outside.kind else {
      Issue.record("expected outsideScope, got \(outside.kind)")
      return
    }
  }

  /// A closure without `async` or `await` keeps the synchronous overload,
  /// so existing registrations resolve synchronously as before.
  @Test func aPlainClosureStaysSynchronous() throws {
    let container = Container()
    container.register(Clock.self) { _ in Clock() }
    container.register(Repository.self, name: "awaiting") { r in
      Repository(database: try await r.resolve())
    }
    _ = try container.resolve(Clock.self)
    #expect(container.registrations.map(\.isAsync) == [false, true])
    #expect(container.registrations.map(\.isolation) == [nil, nil])
  }

  @Test func anAsyncResolverResolvesSynchronousRegistrations() async throws {
    let container = Container()
    container.register(Clock.self) { _ in Clock() }.inObjectScope(.container)
    let clock = try await container.asyncResolver.resolve(Clock.self)
    #expect(clock === (try container.resolve(Clock.self)))
    #expect(try await container.asyncResolver.resolveIfRegistered(Database.self) == nil)
  }

  @Test func aSynchronousResolveOfAnAsyncRegistrationSaysToAwait() async throws {
    let connections = Counter()
    let container = Container()
    container.attributing(to: "Storage") {
      container.register(Database.self, file: "Storage/StorageAssembly.swift", line: 12) { _ in
        await Database.connect(counting: connections)
      }.inObjectScope(.container)
      container.register(Repository.self, file: "Storage/StorageAssembly.swift", line: 16) { r in
        Repository(database: try r.resolve())
      }
    }
    let expected = """
      error: cannot resolve PlugboardKitTests.AsyncResolutionTests.Repository

      What went wrong:
        PlugboardKitTests.AsyncResolutionTests.Database is registered with an async factory, and was resolved synchronously.

      Chain:
        Repository  (registered at Storage/StorageAssembly.swift:16 in plugin Storage)
        → Database  (registered at Storage/StorageAssembly.swift:12 in plugin Storage  ✗ async factory, resolved without await)

      Action:
        Resolve Database (registered at Storage/StorageAssembly.swift:12 in plugin Storage) from async code with try await resolver.resolve(Database.self), where resolver is the AsyncResolver an async factory receives or container.asyncResolver; a synchronous factory that needs it must become async too.
      """
    let before = try #require(throws: ResolutionError.self) { try container.resolve(Repository.self) }
    #expect(before.description == expected)
    // Made once by an await, it still is not served synchronously.
    _ = try await container.asyncResolver.resolve(Database.self)
    let after = try #require(throws: ResolutionError.self) { try container.resolve(Repository.self) }
    #expect(after.description == expected)
    guard case .asyncRegistration = after.kind else {
      Issue.record("kind \(after.kind)")
      return
    }
  }

  @Test func anAsyncContainerRegistrationIsMadeOnceUnderThirtyTwoTasks() async throws {
    let made = Counter()
    let gate = Latch()
    let container = Container()
    let entry = container.register(Database.self) { _ in
      _ = made.next()
      await gate.wait()
      return Database()
    }.inObjectScope(.container)
    let cell = ObjectIdentifier(entry.record)
    let instances = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
      for _ in 0..<32 {
        group.addTask { ObjectIdentifier(try await container.asyncResolver.resolve(Database.self)) }
      }
      // Every other task suspended waiting for the one running the factory.
      while AsyncConstructionCoordinator.shared.waiterCount(for: cell) < 31 { await Task.yield() }
      gate.open()
      return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
    }
    #expect(instances.count == 1)
    #expect(made.count.load(ordering: .relaxed) == 1)
  }

  /// A task waiting for another's construction of a `.container`
  /// instance that is cancelled stops waiting with `CancellationError`;
  /// the owner's construction goes on, and serves the next request.
  @Test func aCancelledWaiterStopsWaitingForTheOwner() async throws {
    let gate = Latch()
    let container = Container()
    let entry = container.register(Database.self) { _ in
      await gate.wait()
      return Database()
    }.inObjectScope(.container)
    let cell = ObjectIdentifier(entry.record)
    let owner = Task { try await container.asyncResolver.resolve(Database.self) }
    while AsyncConstructionCoordinator.shared.isOwned(cell) == false { await Task.yield() }
    let waiter = Task { try await container.asyncResolver.resolve(Database.self) }
    while AsyncConstructionCoordinator.shared.waiterCount(for: cell) < 1 { await Task.yield() }
    waiter.cancel()
    await #expect(throws: CancellationError.self) { try await waiter.value }
    #expect(AsyncConstructionCoordinator.shared.waiterCount(for: cell) == 0)
    gate.open()
    let made = try await owner.value
    #expect(try await container.asyncResolver.resolve(Database.self) === made)
  }

  /// As for a synchronous `.container` registration, a factory that
  /// throws stores nothing, and the next request runs it again.
  @Test func aFailingContainerFactoryLetsTheNextRequestRetry() async throws {
    let attempts = Counter()
    let container = Container()
    container.register(Database.self) { _ in
      if attempts.next() == 1 { throw Refused() }
      return Database()
    }.inObjectScope(.container)
    let error = await #expect(throws: ResolutionError.self) {
      try await container.asyncResolver.resolve(Database.self)
    }
    #expect(
      error?.summary
        == "The factory of PlugboardKitTests.AsyncResolutionTests.Database threw: connection refused")
    let first = try await container.asyncResolver.resolve(Database.self)
    #expect(first === (try await container.asyncResolver.resolve(Database.self)))
    #expect(attempts.count.load(ordering: .relaxed) == 2)
  }

  @Test func graphInstancesAreSharedWithinOneAwait() async throws {
    let container = Container()
    container.register(Clock.self) { _ in
      await Task.yield(); return Clock()
    }
    container.register(Clock.self, name: "sync") { _ in Clock() }
    container.register(Report.self) { r async throws in
      Report(first: try await r.resolve(), second: try await r.resolve())
    }
    container.register(Report.self, name: "sync") { r async throws in
      Report(first: try await r.resolve(name: "sync"), second: try await r.resolve(name: "sync"))
    }
    let report = try await container.asyncResolver.resolve(Report.self)
    let again = try await container.asyncResolver.resolve(Report.self)
    #expect(report.first === report.second)
    #expect(report.first !== again.first)
    let synchronous = try await container.asyncResolver.resolve(Report.self, name: "sync")
    #expect(synchronous.first === synchronous.second)
  }

  @Test func transientAndWeakScopes() async throws {
    let container = Container()
    container.register(Clock.self) { _ in
      await Task.yield(); return Clock()
    }.inObjectScope(.transient)
    container.register(Database.self) { _ in
      await Task.yield(); return Database()
    }.inObjectScope(.weak)
    let resolver = container.asyncResolver
    #expect(try await resolver.resolve(Clock.self) !== (try await resolver.resolve(Clock.self)))
    let held = try await resolver.resolve(Database.self)
    #expect(held === (try await resolver.resolve(Database.self)))
  }

  @Test func aCycleAmongAsyncContainerRegistrationsIsAnError() async throws {
    let container = Container()
    container.register(Clock.self) { r async throws in
      _ = try await r.resolve(Database.self)
      return Clock()
    }.inObjectScope(.container)
    container.register(Database.self) { r async throws in
      _ = try await r.resolve(Clock.self)
      return Database()
    }.inObjectScope(.container)
    let error = try await #require(throws: ResolutionError.self) {
      try await container.asyncResolver.resolve(Clock.self)
    }
    #expect(error.summary == "Dependency cycle: Clock → Database → Clock.")
  }

  /// Two tasks each make one of two `.container` instances that need each
  /// other: the second to ask sees the cycle instead of waiting forever,
  /// and the first, woken when that construction fails, finds the cycle
  /// in its own chain.
  @Test func aCycleAcrossTasksIsAnErrorNotAHang() async throws {
    let clockStarted = Latch()
    let databaseStarted = Latch()
    let container = Container()
    container.register(Clock.self) { r async throws in
      clockStarted.open()
      await databaseStarted.wait()
      _ = try await r.resolve(Database.self)
      return Clock()
    }.inObjectScope(.container)
    container.register(Database.self) { r async throws in
      databaseStarted.open()
      await clockStarted.wait()
      _ = try await r.resolve(Clock.self)
      return Database()
    }.inObjectScope(.container)
    @Sendable func failure(_ resolve: @Sendable () async throws -> Void) async -> (any Error)? {
      do {
        try await resolve()
        return nil
      } catch {
        return error
      }
    }
    async let clock = failure { _ = try await container.asyncResolver.resolve(Clock.self) }
    async let database = failure { _ = try await container.asyncResolver.resolve(Database.self) }
    for error in [await clock, await database] {
      guard let error = error as? ResolutionError, case .cycle(let path) = error.kind else {
        Issue.record("expected a cycle, got \(String(describing: error))")
        continue
      }
      #expect(path.count == 3)
      #expect(path.first == path.last)
    }
  }

  @Test func theChainRunsThroughAsyncAndSynchronousRegistrations() async throws {
    let container = Container()
    container.register(Clock.self, file: "App/Assembly.swift", line: 3) { _ in throw Refused() }
    container.register(Report.self, file: "App/Assembly.swift", line: 5) { r async throws in
      Report(first: try await r.resolve(), second: try await r.resolve())
    }
    let error = try await #require(throws: ResolutionError.self) {
      try await container.asyncResolver.resolve(Report.self)
    }
    #expect(error.chain.map(\.key.shortDescription) == ["Report", "Clock"])
    #expect(
      error.summary == "The factory of PlugboardKitTests.AsyncResolutionTests.Clock threw: connection refused"
    )
  }

  @Test func aForwardedAsyncRegistrationIsAsync() async throws {
    let container = Container()
    container.register(Database.self) { _ in
      await Task.yield(); return Database()
    }
    .inObjectScope(.container).implements((any Sendable).self)
    let forwarded = try await container.asyncResolver.resolve((any Sendable).self)
    #expect(forwarded as? Database === (try await container.asyncResolver.resolve(Database.self)))
    #expect(container.registrations.map(\.isAsync) == [true, true])
  }

  /// The host resolves a service to run its hooks; an async one is awaited.
  @Test func anAsyncContainerRegistrationCanHaveStartHooks() async throws {
    let started = Counter()
    let container = Container()
    container.register(Database.self) { _ in
      await Task.yield(); return Database()
    }
    .inObjectScope(.container)
    .onStart { _ in _ = started.next() }
    try await container.lifecycleServices[0].start(in: container)
    #expect(started.count.load(ordering: .relaxed) == 1)
  }

  @Test func initCompletedHandlersRunAfterAnAsyncFactory() async throws {
    let completed = Counter()
    let container = Container()
    container.register(Clock.self) { _ in
      await Task.yield(); return Clock()
    }
    .initCompleted { _, _ in _ = completed.next() }
    _ = try await container.asyncResolver.resolve(Clock.self)
    #expect(completed.count.load(ordering: .relaxed) == 1)
  }
}

/// A one-shot gate tasks wait on until it opens.
final class Latch: Sendable {
  private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

  func open() {
    let waiters = state.withLock { state in
      state.isOpen = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  func wait() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let isOpen = state.withLock { state in
        if !state.isOpen { state.waiters.append(continuation) }
        return state.isOpen
      }
      if isOpen { continuation.resume() }
    }
  }
}
