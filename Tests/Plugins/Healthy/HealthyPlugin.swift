import PlugboardKit

/// A test-only plugin that is sound on its own, needing nothing but
/// PlugboardKit: `check` passes and `run` prints one line. The fault corpus
/// copies it where only the file's place or mode is wrong.
@_cdecl("plugboard_entry_v1")
public func plugboardEntry() -> UnsafeRawPointer {
  PluginExport.descriptor(name: "Healthy", version: "0.0.1") { [HealthyAssembly()] }
}

struct HealthyAssembly: Assembly {
  func assemble(container: Container) throws {
    container.register((any Application).self) { _ in HealthyApplication() }.dependsOn()
  }
}

struct HealthyApplication: Application {
  func run(arguments: [String]) async throws -> Int32 {
    print("Healthy is running")
    return 0
  }
}
