/// What the API returns when a session is created.
public struct SessionPayload: Codable, Sendable {
  public var token: String
  public var user: User

  public init(token: String, user: User) {
    self.token = token
    self.user = user
  }
}
