/// Domain model: one tracked issue.
public struct Issue: Codable, Sendable, Equatable {
  public var number: Int
  public var title: String
  public var assignee: String?

  public init(number: Int, title: String, assignee: String? = nil) {
    self.number = number
    self.title = title
    self.assignee = assignee
  }
}
