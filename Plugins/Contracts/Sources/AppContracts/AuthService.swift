/// Domain layer: signing in and remembering who is signed in.
public protocol AuthService: Sendable {
  /// Signs `username` in and stores the session token securely.
  func logIn(username: String, password: String) async throws -> User
  /// The stored token of `username`, if signed in.
  func token(for username: String) -> String?
}
