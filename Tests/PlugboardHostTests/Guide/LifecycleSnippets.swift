import PlugboardKit
import Synchronization
import Testing

@testable import PlugboardHost

// The Swift code of Docs/lifecycle.md, compiled and run here so the page
// cannot show code that does not build. Each region between
// `// guide: NAME` and `// end guide` appears verbatim in a ```swift block
// of the page (LifecycleGuideTests checks it).

/// What the snippet's services did, in order.
private let journal = Mutex<[String]>([])

final class Database: Sendable {
  func connect() async throws { journal.withLock { $0.append("connect") } }
  func close() async { journal.withLock { $0.append("close") } }
}

final class HTTPServer: Sendable {
  let database: Database
  init(database: Database) { self.database = database }
  func listen() async throws { journal.withLock { $0.append("listen") } }
  func shutDown() async { journal.withLock { $0.append("shut down") } }
}

// guide: assembly
struct ServerAssembly: Assembly {
  func assemble(container: Container) throws {
    container.register(HTTPServer.self) { r in HTTPServer(database: try r.resolve()) }
      .inObjectScope(.container)
      .dependsOn(Database.self)  // the edge that orders the hooks
      .onStart { server in try await server.listen() }
      .onStop { server in await server.shutDown() }
    container.register(Database.self) { _ in Database() }
      .inObjectScope(.container)
      .dependsOn()
      .onStart { database in try await database.connect() }
      .onStop { database in await database.close() }
  }
}
// end guide

@Suite struct LifecycleSnippets {
  /// Registered server first, the database still starts first and stops last.
  @Test func theDatabaseStartsBeforeTheServerAndStopsAfterIt() async throws {
    let container = Container()
    try ServerAssembly().assemble(container: container)
    let lifecycle = ServiceLifecycle(
      container: container, services: LifecyclePlan(container: container).services, limit: .seconds(60))
    try await lifecycle.start()
    #expect(await lifecycle.stop().isEmpty)
    #expect(journal.withLock { $0 } == ["connect", "listen", "shut down", "close"])
  }
}
