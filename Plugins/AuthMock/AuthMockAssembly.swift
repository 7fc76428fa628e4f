import AppContracts
import PlugboardKit

/// Domain layer, mocked: signing in without the API or the keychain.
/// Registers the same key as `Auth`; the manifest loads one or the other.
struct AuthMockAssembly: Assembly {
  func assemble(container: Container) throws {
    container.autoregister((any AuthService).self) { FixtureAuthService() }
      .inObjectScope(.container)
  }
}
