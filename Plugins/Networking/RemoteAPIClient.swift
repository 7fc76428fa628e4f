import AppContracts
import Foundation

/// The typed API: encodes requests, checks statuses, decodes bodies.
struct RemoteAPIClient: APIClient {
  let transport: any HTTPTransport
  let endpoint: Endpoint

  func createSession(username: String, password: String) async throws -> SessionPayload {
    let body = try JSONEncoder().encode(["username": username, "password": password])
    let request = HTTPRequest(method: "POST", path: "/session", body: Array(body))
    return try JSONDecoder().decode(SessionPayload.self, from: try await send(request))
  }

  func openIssues(token: String) async throws -> [Issue] {
    endpoint.announce("/issues")
    let request = HTTPRequest(
      method: "GET", path: "/issues", headers: ["Authorization": "Bearer \(token)"])
    return try JSONDecoder().decode([Issue].self, from: try await send(request))
  }

  private func send(_ request: HTTPRequest) async throws -> Data {
    let response = try await transport.send(request)
    guard response.status == 200 else {
      throw APIError(request: request.description, status: response.status)
    }
    return Data(response.body)
  }
}
