import PlugboardKit

/// A test-only plugin that assembles cleanly and passes `check` (its
/// dependencies are declared), but whose `Application` depends on a
/// service whose factory traps: the host dies while resolving the
/// `Application`, after every plugin loaded.
@_cdecl("plugboard_entry_v1")
public func plugboardEntry() -> UnsafeRawPointer {
  PluginExport.descriptor(name: "TrappingFactory", version: "0.0.1") { [TrappingFactoryAssembly()] }
}

/// Where the application would keep its data.
final class Database: Sendable {}

/// An application that never gets to run.
struct DatabaseApplication: Application {
  let database: Database

  func run(arguments: [String]) async throws -> Int32 { 0 }
}

struct TrappingFactoryAssembly: Assembly {
  func assemble(container: Container) throws {
    container.register(Database.self) { _ -> Database in
      // Deliberate: the fault corpus needs a factory that traps.
      fatalError("database URL missing")
    }
    .inObjectScope(.container).dependsOn()  // resolves nothing
    container.register((any Application).self) { resolver in
      DatabaseApplication(database: try resolver.resolve())
    }
    .dependsOn(Database.self)
  }
}
