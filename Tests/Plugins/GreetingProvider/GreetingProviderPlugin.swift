import GreetingContract
import PlugboardKit

/// Test-only: registers its own copy's `Greeter`.
@_cdecl("plugboard_entry_v1")
public func plugboardEntry() -> UnsafeRawPointer {
  PluginExport.descriptor(name: "GreetingProvider", version: "0.0.1") { [GreetingProviderAssembly()] }
}

struct GreetingProviderAssembly: Assembly {
  func assemble(container: Container) throws {
    container.autoregister((any Greeter).self) { EnglishGreeter() }
  }
}
