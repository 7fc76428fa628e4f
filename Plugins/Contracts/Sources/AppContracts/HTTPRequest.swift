/// A request as the transport sees it. Its body is bytes, not `Data`, so
/// that the contracts need no Foundation: a module built with library
/// evolution may only expose types whose layout can evolve, which
/// Foundation's on Linux cannot.
public struct HTTPRequest: Sendable, CustomStringConvertible {
  public var method: String
  public var path: String
  public var headers: [String: String]
  public var body: [UInt8]?

  public init(method: String, path: String, headers: [String: String] = [:], body: [UInt8]? = nil) {
    self.method = method
    self.path = path
    self.headers = headers
    self.body = body
  }

  public var description: String { "\(method) \(path)" }
}
