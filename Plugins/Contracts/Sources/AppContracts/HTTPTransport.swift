/// Data layer: sends one HTTP request and returns the response. The sample
/// deployment's implementation answers from in-process fixtures, so the
/// sample runs offline.
public protocol HTTPTransport: Sendable {
  func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
