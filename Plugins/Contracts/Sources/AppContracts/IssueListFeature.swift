/// Feature layer: the issue list screen, rendered as lines of text.
public protocol IssueListFeature: Sendable {
  func render(for user: User) async throws -> [String]
}
