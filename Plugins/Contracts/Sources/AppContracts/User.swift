/// Domain model: a signed-in person.
public struct User: Codable, Sendable, Equatable {
  public var login: String
  public var displayName: String

  public init(login: String, displayName: String) {
    self.login = login
    self.displayName = displayName
  }
}
