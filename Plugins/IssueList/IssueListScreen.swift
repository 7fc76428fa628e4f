import AppContracts

/// Fetches the open issues with the signed-in user's token and lays them
/// out, marking the ones assigned to that user.
struct IssueListScreen: AppFeature {
  /// The user is signed out, so there is no token to fetch issues with.
  struct SignedOut: Error, CustomStringConvertible {
    var login: String
    var description: String { "\(login) is not signed in" }
  }

  let api: any APIClient
  let auth: any AuthService
  let analytics: (any AnalyticsTracker)?

  var title: String { "Open issues" }

  func render(for user: User) async throws -> [String] {
    guard let token = auth.token(for: user.login) else { throw SignedOut(login: user.login) }
    let issues = try await api.openIssues(token: token)
    analytics?.track("issues.viewed")
    let width = issues.map { String($0.number).count }.max() ?? 0
    let rows = issues.map { issue in
      let number = String(repeating: " ", count: width - String(issue.number).count) + "#\(issue.number)"
      let mark = issue.assignee == user.login ? "  ← assigned to you" : ""
      return "  \(number)  \(issue.title)\(mark)"
    }
    return ["Open issues (\(issues.count)):"] + rows
  }
}
