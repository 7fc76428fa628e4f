import AppContracts
import PlugboardKit

/// Data layer: secure storage. One keychain per container, like the system's.
struct KeychainAssembly: Assembly {
  func assemble(container: Container) throws {
    container.autoregister((any SecureStore).self) { InMemoryKeychain() }
      .inObjectScope(.container)
  }
}
