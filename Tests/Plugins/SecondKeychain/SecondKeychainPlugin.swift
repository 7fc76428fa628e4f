import AppContracts
import PlugboardKit

/// Test-only: registers `SecureStore`, as the Keychain plugin does — the
/// same key from two plugins.
@_cdecl("plugboard_entry_v1")
public func plugboardEntry() -> UnsafeRawPointer {
  PluginExport.descriptor(name: "SecondKeychain", version: "0.0.1") { [SecondKeychainAssembly()] }
}

struct SecondKeychainAssembly: Assembly {
  func assemble(container: Container) throws {
    container.autoregister((any SecureStore).self) { ForgetfulStore() }
      .inObjectScope(.container)
  }
}
