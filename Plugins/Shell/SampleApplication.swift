import AppContracts
import PlugboardKit

/// The sample app: sign in, then show the open issues.
///
/// Arguments (after `plugboard run --`): `--user NAME --password SECRET`;
/// without them it signs in the fixture user `ada`.
struct SampleApplication: Application {
  let login: any LoginFeature
  let issues: any IssueListFeature
  let console: any AppConsole
  let analytics: (any AnalyticsTracker)?

  func run(arguments: [String]) async throws -> Int32 {
    var username = "ada"
    var password = "analytical-engine"
    var remaining = arguments[...]
    while let option = remaining.popFirst() {
      guard let value = remaining.popFirst(), option == "--user" || option == "--password" else {
        console.write("usage: plugboard run -- [--user NAME --password SECRET]")
        return 2
      }
      if option == "--user" { username = value } else { password = value }
    }
    let user = try await login.present(username: username, password: password)
    for line in try await issues.render(for: user) { console.write(line) }
    if let analytics {
      console.write("Analytics recorded: \(analytics.events.joined(separator: ", "))")
    }
    return 0
  }
}
