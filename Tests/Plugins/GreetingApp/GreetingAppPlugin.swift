import GreetingContract
import PlugboardKit

/// Test-only: an `Application` that needs its own copy's `Greeter`, which
/// only GreetingProvider's copy of the module registers.
@_cdecl("plugboard_entry_v1")
public func plugboardEntry() -> UnsafeRawPointer {
  PluginExport.descriptor(name: "GreetingApp", version: "0.0.1") { [GreetingAppAssembly()] }
}

struct GreetingAppAssembly: Assembly {
  func assemble(container: Container) throws {
    container.register((any Application).self) { resolver in
      GreetingApplication(greeter: try resolver.resolve())
    }
    .dependsOn((any Greeter).self)
  }
}
