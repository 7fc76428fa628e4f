import AppContracts

/// An API client that would sign itself in through `AuthService`; never
/// made, since the check that finds its cycle runs no factory.
struct SelfSigningAPIClient: APIClient {
  struct Unavailable: Error {}

  let auth: any AuthService

  func createSession(username: String, password: String) async throws -> SessionPayload {
    throw Unavailable()
  }

  func openIssues(token: String) async throws -> [Issue] {
    throw Unavailable()
  }
}
