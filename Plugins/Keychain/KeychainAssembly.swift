import AppContracts
import PlugboardKit

/// Data layer: secure storage. One keychain per container, like the system's.
struct KeychainAssembly: Assembly {
  func assemble(container: Container) throws {
    container.autoregister((any SecureStore).self) { InMemoryKeychain() }
      .inObjectScope(.container)
      // Lifecycle hooks (Docs/lifecycle.md): the keychain opens before the
      // services that use it start, and locks after they stopped.
      .onStart { _ in print("Keychain: unlocked") }
      .onStop { _ in print("Keychain: locked") }
  }
}
