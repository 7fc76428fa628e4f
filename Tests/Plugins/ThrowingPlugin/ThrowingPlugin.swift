import PlugboardKit

/// A test-only plugin whose assembly throws, to check that the host reports
/// it (stage "assemble") and goes on with the other plugins.
@_cdecl("plugboard_entry_v1")
public func plugboardEntry() -> UnsafeRawPointer {
  PluginExport.descriptor(name: "Throwing", version: "0.0.1") { [ThrowingAssembly()] }
}

/// Refuses to assemble, as an assembly missing its configuration would.
struct ThrowingAssembly: Assembly {
  struct MissingConfiguration: Error, CustomStringConvertible {
    var description: String { "missing configuration value 'api-key'" }
  }

  func assemble(container: Container) throws {
    throw MissingConfiguration()
  }
}
