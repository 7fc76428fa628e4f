import AppContracts
import Synchronization

/// Signs anyone in as the fixture user "Mock User", whatever the password,
/// and remembers a fixture token in memory: no API, no keychain.
final class FixtureAuthService: AuthService {
  private let tokens = Mutex<[String: String]>([:])

  func logIn(username: String, password: String) async throws -> User {
    tokens.withLock { $0[username] = "fixture-token-\(username)" }
    return User(login: username, displayName: "Mock User")
  }

  func token(for username: String) -> String? {
    tokens.withLock { $0[username] }
  }
}
