/// A response: a status code and a body, as bytes (see ``HTTPRequest``).
public struct HTTPResponse: Sendable {
  public var status: Int
  public var body: [UInt8]

  public init(status: Int, body: [UInt8]) {
    self.status = status
    self.body = body
  }
}
