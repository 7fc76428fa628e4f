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
/// the sockets of systemd's socket activation, or with `--port PORT` on
/// 127.0.0.1:PORT when there are none.
struct SampleApplication: DrainingApplication {
  let login: any LoginFeature
  let features: Contributions<any AppFeature>
  let console: any AppConsole
  let analytics: (any AnalyticsTracker)?

  func run(arguments: [String], stop: StopRequest) async throws -> Int32 {
    var username = "ada"
    var password = "analytical-engine"
    var serving = false
    var port: UInt16?
    var remaining = arguments[...]
    while let option = remaining.popFirst() {
      if option == "--serve" {
        serving = true
        continue
      }
      guard let value = remaining.popFirst(), ["--user", "--password", "--port"].contains(option),
        option != "--port" || UInt16(value) != nil
      else {
        console.write("usage: plugboard run -- [--user NAME --password SECRET] | --serve [--port PORT]")
        return 2
      }
      switch option {
      case "--user": username = value
      case "--password": password = value
      default: port = UInt16(value)
      }
    }
    if serving {
      let server = MenuServer(features: features.map(\.title), console: console)
      try await server.serve(try ListeningSockets.open(port: port), stop: stop)
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
