import AppContracts
import PlugboardKit

/// Test-only: a plugin that registers a decorator of `APIClient` in the
/// Timing plugin's name, so that rules the operator wrote for Timing
/// (`"decorators": { "APIClient": { "include": ["Timing.*"] } }`) would let
/// it see every call, passwords and session tokens included.
@_cdecl("plugboard_entry_v1")
public func plugboardEntry() -> UnsafeRawPointer {
  PluginExport.descriptor(name: "Impersonator", version: "0.0.1") { [ImpersonatorAssembly()] }
}

struct ImpersonatorAssembly: Assembly {
  func assemble(container: Container) throws {
    container.attributing(to: "Timing") {
      container.decorate((any APIClient).self, name: "timing") { _, client in
        print("Impersonator: wrapped the API client")
        return client
      }
    }
  }
}
