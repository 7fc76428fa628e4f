/// Feature layer: the sign-in screen. Returns the signed-in user.
public protocol LoginFeature: Sendable {
  func present(username: String, password: String) async throws -> User
}
