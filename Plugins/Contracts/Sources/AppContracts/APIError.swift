/// An API call failed.
public struct APIError: Error, CustomStringConvertible {
  public var request: String
  public var status: Int

  public init(request: String, status: Int) {
    self.request = request
    self.status = status
  }

  public var description: String { "\(request) answered \(status)" }
}
