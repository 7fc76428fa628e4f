import AppContracts
import PlugboardKit

/// Test-only: an API client that needs `AuthService`, while Auth's
/// `AuthService` needs an `APIClient` — deployed with Auth, a dependency
/// cycle across two plugins.
@_cdecl("plugboard_entry_v1")
public func plugboardEntry() -> UnsafeRawPointer {
  PluginExport.descriptor(name: "CyclicAPI", version: "0.0.1") { [CyclicAPIAssembly()] }
}

struct CyclicAPIAssembly: Assembly {
  func assemble(container: Container) throws {
    container.register((any APIClient).self) { resolver in
      SelfSigningAPIClient(auth: try resolver.resolve())
    }
    .inObjectScope(.container)
    .dependsOn((any AuthService).self)
  }
}
