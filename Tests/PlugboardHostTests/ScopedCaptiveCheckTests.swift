import PlugboardKit
import Testing

@testable import PlugboardEngine

/// `check` on a `.container` service that depends on a `.scoped` one: an
/// error, since a `.container` factory resolves outside any scope and the
/// service could never be made.
@Suite struct ScopedCaptiveCheckTests {
  final class Cache {}
  final class RequestContext {}

  @Test func aContainerServiceHoldingAScopedOneIsAnError() throws {
    let line = #line + 2
    let findings = try InProcessDeployment.findings { container in
      container.register(Cache.self) { _ in Cache() }.inObjectScope(.container).dependsOn(RequestContext.self)
      container.register(RequestContext.self) { _ in RequestContext() }.inObjectScope(.scoped).dependsOn()
    }
    let captive = findings.filter { $0.kind == .captiveDependency }
    #expect(captive.map(\.severity) == [.error])
    #expect(captive.map(\.title) == ["captive dependency: Cache (container) holds RequestContext (scoped)"])
    #expect(
      captive.first?.explanation == [
        "Cache is made once per container and resolves its dependencies from the container, outside any "
          + "scope, but RequestContext is registered scoped (one instance per scope): resolving Cache fails, "
          + "whichever scope asks for it.",
        "The dependency is declared at \(#fileID):\(line) in plugin Sample.",
      ])
    #expect(
      captive.first?.action
        == "Register Cache .inObjectScope(.scoped) (or .transient, resolved from a scope); or, if one shared "
        + "RequestContext is right, register it .inObjectScope(.container).")
  }

  /// A `.transient` service may hold a `.scoped` one: resolved from a
  /// scope, it gets the scope's.
  @Test func aTransientServiceMayHoldAScopedOne() throws {
    let findings = try InProcessDeployment.findings { container in
      container.register(Cache.self) { _ in Cache() }.inObjectScope(.transient).dependsOn(RequestContext.self)
      container.register(RequestContext.self) { _ in RequestContext() }.inObjectScope(.scoped).dependsOn()
    }
    #expect(findings.filter { $0.kind == .captiveDependency }.isEmpty)
  }
}
