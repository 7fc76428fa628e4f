import PlugboardKit

/// A test-only plugin whose `Application` has an async factory that
/// awaits an async `.container` registration, as an application that
/// connects to its database while it is made would: `plugboard run` must
/// resolve it through the awaited path. Needs only PlugboardKit.
@_cdecl("plugboard_entry_v1")
public func plugboardEntry() -> UnsafeRawPointer {
  PluginExport.descriptor(name: "AsyncApplication", version: "0.0.1") { [AsyncApplicationAssembly()] }
}

struct AsyncApplicationAssembly: Assembly {
  func assemble(container: Container) throws {
    container.register(Connection.self) { _ in await Connection.open() }
      .inObjectScope(.container)
      .dependsOn()
    container.register((any Application).self) { r async throws in
      ConnectedApplication(connection: try await r.resolve())
    }
    .dependsOn(Connection.self)
  }
}

/// Made by awaiting, as a client's connection is.
final class Connection: Sendable {
  let description: String

  private init(description: String) {
    self.description = description
  }

  static func open() async -> Connection {
    await Task.yield()
    return Connection(description: "connection opened by an await")
  }
}

/// Prints what it was given and succeeds.
struct ConnectedApplication: Application {
  let connection: Connection

  func run(arguments: [String]) async throws -> Int32 {
    print("running with a \(connection.description)")
    return 0
  }
}
