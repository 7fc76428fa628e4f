import PlugboardKit
import Testing

/// Captive dependencies are found through what a singleton makes with it,
/// for every scope, and deferred wrappers are judged by when they resolve:
/// a `Provider` resolves anew on each read, an `AsyncLazy` is read with
/// `await`, later.
@Suite struct ScopeValidationTests {
  final class Holder: Sendable {}
  final class Middle: Sendable {}
  final class PerScope: Sendable {}
  final class Session: Sendable {}
  final class Fresh: Sendable {}
  final class Slow: Sendable {}

  private static let session = CustomScope("session")

  @Test func aScopedServiceMadeThroughATransientIsAnError() throws {
    let container = Container()
    container.register(Holder.self, file: "App/Holder.swift", line: 1) { r in
      _ = try r.resolve(Middle.self)
      return Holder()
    }.inObjectScope(.container).dependsOn(Middle.self)
    container.register(Middle.self, file: "App/Middle.swift", line: 2) { r in
      _ = try r.resolve(PerScope.self)
      return Middle()
    }.inObjectScope(.transient).dependsOn(PerScope.self)
    container.register(PerScope.self, file: "App/PerScope.swift", line: 3) { _ in PerScope() }
      .inObjectScope(.scoped).dependsOn()
    let report = container.check()
    #expect(!report.isValid)
    let error = try #require(report.findings.first { $0.severity == .error })
    #expect(error.kind == .captiveDependency)
    #expect(error.title == "captive dependency: Holder (container) holds PerScope (scoped)")
    #expect(
      error.chain.map(\.text) == [
        "Holder  (registered at App/Holder.swift:1  scope container)",
        "Middle  (registered at App/Middle.swift:2  scope transient, made with it)",
        "PerScope  (registered at App/PerScope.swift:3  ✗ scope scoped, out of reach)",
      ])
    // What the finding says: resolving the singleton fails, even from a scope.
    #expect(throws: (any Error).self) { try container.resolve(Holder.self) }
  }

  @Test func aCustomScopedServiceASingletonHoldsIsAWarning() throws {
    let container = Container()
    container.register(Holder.self, file: "App/Holder.swift", line: 1) { _ in Holder() }
      .inObjectScope(.container).dependsOn(Session.self)
    container.register(Session.self, file: "App/Session.swift", line: 2) { _ in Session() }
      .inObjectScope(Self.session).dependsOn()
    let report = container.check()
    #expect(report.isValid)
    let warning = try #require(report.warnings.first { $0.kind == .captiveDependency })
    #expect(warning.title == "captive dependency: Holder (container) holds Session (custom scope session)")
    #expect(
      warning.explanation.first
        == "Holder is made once per container and keeps the Session it receives for as long as the container "
        + "lives, although Session is registered in the custom scope session: after resetObjectScope(session) "
        + "everything else gets a new Session, and Holder keeps the old one.")
  }

  @Test func aProviderOfATransientIsNoCaptive() {
    let container = Container()
    container.register(Holder.self) { _ in Holder() }.inObjectScope(.container).dependsOn(
      Provider<Fresh>.self)
    container.register(Fresh.self) { _ in Fresh() }.inObjectScope(.transient).dependsOn()
    #expect(!container.check().findings.contains { $0.kind == .captiveDependency })
  }

  @Test func aProviderOfAScopedServiceReadFromASingletonIsAnError() throws {
    let container = Container()
    container.register(Holder.self) { _ in Holder() }.inObjectScope(.container).dependsOn(
      Provider<PerScope>.self)
    container.register(PerScope.self) { _ in PerScope() }.inObjectScope(.scoped).dependsOn()
    let error = try #require(container.check().findings.first { $0.kind == .captiveDependency })
    #expect(error.severity == .error)
    #expect(error.chain.last?.marker == "✗ scope scoped, read outside any scope")
  }

  /// A synchronous factory only stores an `AsyncLazy`; it is read with
  /// `await`, where the async registration serves it.
  @Test func anAsyncLazyInASynchronousFactoryIsNoSynchronousDependency() throws {
    let container = Container()
    container.register(Holder.self) { r in
      _ = try r.resolve(AsyncLazy<Slow>.self)
      return Holder()
    }.dependsOn(AsyncLazy<Slow>.self)
    container.register(Slow.self) { _ in
      await Task.yield()
      return Slow()
    }
    let report = container.check()
    #expect(!report.findings.contains { $0.kind == .synchronousDependencyOnAsync }, "\(report.findings)")
    _ = try container.resolve(Holder.self)
    container.register(Fresh.self) { _ in Fresh() }.dependsOn(Slow.self)
    #expect(container.check().findings.contains { $0.kind == .synchronousDependencyOnAsync })
  }
}
