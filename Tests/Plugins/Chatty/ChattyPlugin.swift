import PlugboardKit

/// A test-only plugin that prints while it registers and in its loaded
/// hook, as plugins with leftover debugging output do: what it prints must
/// not end up in front of `list --json`'s JSON.
@_cdecl("plugboard_entry_v1")
public func plugboardEntry() -> UnsafeRawPointer {
  PluginExport.descriptor(name: "Chatty", version: "0.0.1") { [ChattyAssembly()] }
}

struct ChattyAssembly: Assembly {
  func assemble(container: Container) throws {
    print("Chatty is registering")
    container.register((any Application).self) { _ in ChattyApplication() }.dependsOn()
  }

  func loaded(resolver: Resolver) throws {
    print("Chatty is loaded")
  }
}

struct ChattyApplication: Application {
  func run(arguments: [String]) async throws -> Int32 {
    print("Chatty is running")
    return 0
  }
}
