import AppContracts

/// Signs in through the API and keeps the session token in the keychain.
struct KeychainAuthService: AuthService {
  let api: any APIClient
  let keychain: any SecureStore

  func logIn(username: String, password: String) async throws -> User {
    let session = try await api.createSession(username: username, password: password)
    keychain.set(session.token, for: username)
    return session.user
  }

  func token(for username: String) -> String? {
    keychain.secret(for: username)
  }
}
