import AppContracts

/// The API answered from canned data, without any transport: the mock a
/// plugin ships beside its real client. Registered under the name "Mock";
/// a profile that says `"APIClient": "Mock"` makes it serve every unnamed
/// request for the API client.
struct FixtureAPIClient: APIClient {
  static let issues = [
    Issue(number: 1, title: "Fixture: sign-in is mocked by the AuthMock plugin", assignee: "ada"),
    Issue(number: 2, title: "Fixture: these issues come from FixtureAPIClient, not the server"),
  ]

  func createSession(username: String, password: String) async throws -> SessionPayload {
    SessionPayload(token: "fixture-token-\(username)", user: User(login: username, displayName: "Mock User"))
  }

  let endpoint: Endpoint

  func openIssues(token: String) async throws -> [Issue] {
    endpoint.announce("/issues")
    return Self.issues
  }
}
