import PlugboardKit

/// A test-only plugin whose assembly throws, to check that the host reports
/// it (stage "assemble") and goes on with the other plugins.
@_cdecl("plugboard_entry_v1")
public func plugboardEntry() -> UnsafeRawPointer {
  PluginExport.descriptor(name: "Throwing", version: "0.0.1") { [ThrowingAssembly()] }
}

/// Refuses to assemble, as an assembly missing its configuration would,
/// after it has already registered an application of its own: an
/// optional plugin that fails part-way must leave none of itself behind.
struct ThrowingAssembly: Assembly {
  struct MissingConfiguration: Error, CustomStringConvertible {
    var description: String { "missing configuration value 'api-key'" }
  }

  func assemble(container: Container) throws {
    container.register((any Application).self) { _ in HalfMadeApplication() }
    throw MissingConfiguration()
  }
}

/// What would run if the failed plugin's first registration stayed.
struct HalfMadeApplication: Application {
  func run(arguments: [String]) async throws -> Int32 {
    print("the half-assembled Throwing plugin is running")
    return 0
  }
}
