import AppContracts
import Foundation

/// An in-process stand-in for the issue tracker's HTTP server: it answers
/// `POST /session` and `GET /issues` from fixture data, so the sample
/// deployment never touches the network.
struct FixtureTransport: HTTPTransport {
  private struct Credentials: Decodable {
    var username: String
    var password: String
  }

  private let accounts: [String: (password: String, user: User)] = [
    "ada": ("analytical-engine", User(login: "ada", displayName: "Ada Lovelace")),
    "grace": ("cobol", User(login: "grace", displayName: "Grace Hopper")),
  ]

  private let issues = [
    Issue(number: 12, title: "Crash when plugins.json is empty", assignee: "ada"),
    Issue(number: 15, title: "`plugboard list` should group by layer"),
    Issue(number: 21, title: "Document the plugin ABI", assignee: "grace"),
  ]

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    switch (request.method, request.path) {
    case ("POST", "/session"): try session(request)
    case ("GET", "/issues"): try openIssues(request)
    default: HTTPResponse(status: 404, body: [])
    }
  }

  private func session(_ request: HTTPRequest) throws -> HTTPResponse {
    let credentials = try JSONDecoder().decode(Credentials.self, from: Data(request.body ?? []))
    guard let account = accounts[credentials.username], account.password == credentials.password
    else { return HTTPResponse(status: 401, body: []) }
    let payload = SessionPayload(token: "token-\(credentials.username)", user: account.user)
    return HTTPResponse(status: 200, body: Array(try JSONEncoder().encode(payload)))
  }

  private func openIssues(_ request: HTTPRequest) throws -> HTTPResponse {
    let token = request.headers["Authorization"]?.replacingOccurrences(of: "Bearer ", with: "")
    guard let token, accounts.keys.contains(where: { "token-\($0)" == token }) else {
      return HTTPResponse(status: 401, body: [])
    }
    return HTTPResponse(status: 200, body: Array(try JSONEncoder().encode(issues)))
  }
}
