import PlugboardAnalysis
import PlugboardKit
import Testing

@testable import PlugboardEngine

/// `plugboard check` on synchronous registrations that declare a
/// dependency on an async one, from a container assembled in the test
/// process: the analysis reads only declarations.
@Suite struct AsyncCheckTests {
  final class Database: Sendable {}
  final class Repository {
    init(database: Database) {}
  }
  final class Report {}
  struct App: Application {
    func run(arguments: [String]) async throws -> Int32 { 0 }
  }

  private func findings(_ assemble: (Container) -> Void) throws -> [Finding] {
    try InProcessDeployment.findings { container in
      container.register((any Application).self) { _ in App() }.dependsOn()
      container.register(Database.self) { _ in
        await Task.yield(); return Database()
      }
      .inObjectScope(.container).dependsOn()
      assemble(container)
    }
  }

  @Test func aSynchronousDependencyOnAnAsyncRegistrationIsAnError() throws {
    let found = try findings { container in
      container.autoregister(Repository.self, initializer: Repository.init)
    }
    #expect(
      found.map(\.title) == ["synchronous dependency on an async registration: Repository needs Database"])
    let finding = try #require(found.first)
    #expect(finding.severity == .error)
    #expect(finding.kind == .synchronousDependencyOnAsync)
    #expect(
      finding.explanation.first
        == "Database is registered with an async factory so only try await can resolve it, but "
        + "Repository's factory is synchronous: resolving Database there fails every time.")
    #expect(
      finding.action
        == "Make Repository's factory async ({ r async throws in … try await r.resolve(…) }), or give "
        + "Database a synchronous factory, moving its awaited setup into an onStart hook.")
    #expect(finding.chain.map(\.marker) == ["synchronous", "✗ async factory, resolved without await"])
  }

  @Test func anAsyncDependentOrADeferredOneIsChecked() throws {
    let found = try findings { container in
      container.register(Repository.self) { r async throws in Repository(database: try await r.resolve()) }
        .dependsOn(Database.self)
      container.register(Report.self) { _ in Report() }.dependsOn(Lazy<Database>.self)
    }
    // An async dependent awaits; a Lazy resolves synchronously on use.
    #expect(found.map(\.title) == ["synchronous dependency on an async registration: Report needs Database"])
  }

  @Test func anIsolatedRegistrationIsNamedWithItsActor() throws {
    let found = try findings { container in
      container.register(Report.self) { @MainActor _ async in Report() }.dependsOn()
      container.register(Repository.self) { _ in Repository(database: Database()) }.dependsOn(Report.self)
    }
    #expect(
      found.first?.explanation.first
        == "Report is registered with an async factory, isolated to MainActor, so only try await can "
        + "resolve it, but Repository's factory is synchronous: resolving Report there fails every time.")
  }
}
