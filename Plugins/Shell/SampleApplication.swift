import AppContracts
import PlugboardKit

/// The sample app: sign in, then show its menu and every section in it.
///
/// The menu is the extension point `AppFeature`: the app names no feature,
/// it shows what the loaded plugins contribute, in their order.
///
/// Arguments (after `plugboard run --`): `--user NAME --password SECRET`;
/// without them it signs in the fixture user `ada`.
struct SampleApplication: Application {
  let login: any LoginFeature
  let features: Contributions<any AppFeature>
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
    console.write("Menu (\(features.count) features): \(features.map(\.title).joined(separator: ", "))")
    for feature in features {
      for line in try await feature.render(for: user) { console.write(line) }
    }
    if let analytics {
      console.write("Analytics recorded: \(analytics.events.joined(separator: ", "))")
    }
    return 0
  }
}
