import Foundation

/// A request as the transport sees it.
public struct HTTPRequest: Sendable, CustomStringConvertible {
  public var method: String
  public var path: String
  public var headers: [String: String]
  public var body: Data?

  public init(method: String, path: String, headers: [String: String] = [:], body: Data? = nil) {
    self.method = method
    self.path = path
    self.headers = headers
    self.body = body
  }

  public var description: String { "\(method) \(path)" }
}
