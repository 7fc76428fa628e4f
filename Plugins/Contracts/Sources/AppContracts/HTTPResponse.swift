import Foundation

/// A response: a status code and a body.
public struct HTTPResponse: Sendable {
  public var status: Int
  public var body: Data

  public init(status: Int, body: Data) {
    self.status = status
    self.body = body
  }
}
