import AppContracts
import Synchronization

/// A keychain that forgets everything when the process ends: the sample's
/// stand-in for the platform's secure storage.
final class InMemoryKeychain: SecureStore {
  private let secrets = Mutex<[String: String]>([:])

  func set(_ secret: String, for account: String) {
    secrets.withLock { $0[account] = secret }
  }

  func secret(for account: String) -> String? {
    secrets.withLock { $0[account] }
  }
}
