import PlugboardKit
import Synchronization
import Testing

/// `container.dispose()` ends a plain application's singletons: their
/// dispose hooks run, newest first, async ones awaited, and a failure is
/// thrown once every hook has run.
@Suite struct ContainerDisposeTests {
  final class Pool: Sendable {}
  final class Log: Sendable {}
  final class Request: Sendable {}
  struct Broken: Error {}

  @Test func theSingletonsAreDisposedNewestFirstAndMadeAgainAfterwards() async throws {
    let order = Mutex<[String]>([])
    let container = Container()
    container.register(Pool.self) { _ in Pool() }.inObjectScope(.container)
      .onDispose { _ in order.withLock { $0.append("pool") } }
    container.register(Log.self) { _ in Log() }.inObjectScope(.container)
      .onDispose { _ async in order.withLock { $0.append("log") } }
    container.register(Request.self) { _ in Request() }.inObjectScope(.transient)
    let pool = try container.resolve(Pool.self)
    _ = try container.resolve(Log.self)
    _ = try container.resolve(Request.self)
    try await container.dispose()
    #expect(order.withLock { $0 } == ["log", "pool"])
    #expect(try container.resolve(Pool.self) !== pool)
    // Disposed once: a second call finds nothing made since but the new Pool.
    try await container.dispose()
    #expect(order.withLock { $0 } == ["log", "pool", "pool"])
  }

  @Test func aFailingHookIsThrownAfterEveryHookRan() async throws {
    let ran = Mutex(false)
    let container = Container()
    container.register(Pool.self) { _ in Pool() }.inObjectScope(.container)
      .onDispose { _ in ran.withLock { $0 = true } }
    container.register(Log.self) { _ in Log() }.inObjectScope(.container).onDispose { _ in throw Broken() }
    _ = try container.resolve(Pool.self)
    _ = try container.resolve(Log.self)
    await #expect(throws: ScopeDisposalError.self) { try await container.dispose() }
    #expect(ran.withLock { $0 })
  }

  @Test func aChildDisposesItsOwnSingletonsNotItsParents() async throws {
    let disposed = Mutex<[String]>([])
    let parent = Container()
    parent.register(Pool.self) { _ in Pool() }.inObjectScope(.container)
      .onDispose { _ in disposed.withLock { $0.append("parent's pool") } }
    let child = Container(parent: parent)
    child.register(Log.self) { _ in Log() }.inObjectScope(.container)
      .onDispose { _ in disposed.withLock { $0.append("child's log") } }
    _ = try child.resolve(Pool.self)
    _ = try child.resolve(Log.self)
    try await child.dispose()
    #expect(disposed.withLock { $0 } == ["child's log"])
  }
}

/// A dispose hook on a registration whose instances are never disposed
/// is a warning, not a silent no-op.
@Suite struct DisposeHookScopeTests {
  final class Connection: Sendable {}

  @Test(arguments: [ObjectScope.transient, .graph])
  func aDisposeHookThatNeverRunsIsAWarning(scope: ObjectScope) throws {
    let container = Container()
    container.register(Connection.self, file: "App/Connection.swift", line: 3) { _ in Connection() }
      .inObjectScope(scope).onDispose { _ in }.dependsOn()
    let report = container.check()
    #expect(report.isValid)
    let warning = try #require(report.warnings.first { $0.kind == .lifecycleHookScope })
    #expect(warning.title == "a dispose hook on Connection, which is never disposed (\(scope))")
  }

  @Test func aScopedOrContainerDisposeHookIsFine() {
    let container = Container()
    container.register(Connection.self) { _ in Connection() }.inObjectScope(.scoped).onDispose { _ in }
      .dependsOn()
    #expect(container.check().findings.isEmpty)
  }
}

/// A scope disposes an instance before what it declares it depends on,
/// even when that was made later, through a `Lazy`.
@Suite struct DisposalOrderTests {
  final class Report: Sendable {
    let store: Lazy<Store>
    init(store: Lazy<Store>) { self.store = store }
  }
  final class Store: Sendable {}

  @Test func aServiceIsDisposedBeforeTheLazyDependencyItMadeLater() async throws {
    let order = Mutex<[String]>([])
    let container = Container()
    container.register(Report.self) { r in Report(store: try r.resolve()) }.inObjectScope(.scoped)
      .dependsOn(Lazy<Store>.self).onDispose { _ in order.withLock { $0.append("report") } }
    container.register(Store.self) { _ in Store() }.inObjectScope(.scoped).dependsOn()
      .onDispose { _ in order.withLock { $0.append("store") } }
    try await container.withScope { scope in
      let report = try scope.resolve(Report.self)
      // Made now, after the Report: newest first would dispose it first.
      _ = try report.store.instance
    }
    #expect(order.withLock { $0 } == ["report", "store"])
  }
}
