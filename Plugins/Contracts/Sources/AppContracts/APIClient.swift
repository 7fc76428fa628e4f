/// Data layer: typed calls to the issue-tracker API, on top of an
/// ``HTTPTransport``.
public protocol APIClient: Sendable {
  /// Exchanges credentials for a session token.
  func createSession(username: String, password: String) async throws -> SessionPayload
  /// The open issues visible to the bearer of `token`.
  func openIssues(token: String) async throws -> [Issue]
}
