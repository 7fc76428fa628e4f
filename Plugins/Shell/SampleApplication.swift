import AppContracts
import PlugboardKit

/// The sample app: sign in, then show its menu and every section in it; or,
/// with `--serve`, answer for the menu on a socket until asked to stop (see
/// ``MenuServer``).
///
/// The menu is the extension point `AppFeature`: the app names no feature,
/// it shows what the loaded plugins contribute, in their order.
///
/// Arguments (after `plugboard run --`): `--user NAME --password SECRET`;
/// without them it signs in the fixture user `ada`. `--serve` serves on
/// the sockets passed as systemd's socket activation passes them: a
/// `.socket` unit's, or the one `plugboard run --listen PORT` opens.
struct SampleApplication: DrainingApplication {
  let login: any LoginFeature
  let features: Contributions<any AppFeature>
  let console: any AppConsole
  let analytics: (any AnalyticsTracker)?

  func run(arguments: [String], stop: StopRequest) async throws -> Int32 {
    var username = "ada"
    var password = "analytical-engine"
    var serving = false
    var remaining = arguments[...]
    while let option = remaining.popFirst() {
      if option == "--serve" {
        serving = true
        continue
      }
      if option == "--port" {
        console.write(
          "the sample binds no port of its own (a reload's new child would find it still the old one's): "
            + "serve with plugboard run --listen PORT -- --serve")
        return 2
      }
      guard let value = remaining.popFirst(), ["--user", "--password"].contains(option) else {
        console.write("usage: plugboard run [--listen PORT] -- [--user NAME --password SECRET] | --serve")
        return 2
      }
      if option == "--user" { username = value } else { password = value }
    }
    if serving {
      let server = MenuServer(features: features.map(\.title), console: console)
      try await server.serve(try ListeningSockets.open(), stop: stop)
      return 0
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
