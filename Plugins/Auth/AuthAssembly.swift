import AppContracts
import PlugboardKit

/// Domain layer: signing in, on top of the API client and the keychain.
struct AuthAssembly: Assembly {
  func assemble(container: Container) throws {
    container.register((any AuthService).self) { resolver in
      KeychainAuthService(api: try resolver.resolve(), keychain: try resolver.resolve())
    }
    .inObjectScope(.container)
    .dependsOn((any APIClient).self, (any SecureStore).self)
    // Starts after the keychain it depends on, stops before it.
    .onStart { _ in print("Auth: session store opened") }
    .onStop { _ in print("Auth: session store closed") }
  }
}
