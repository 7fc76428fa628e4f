import PlugboardKit

/// What the Networking plugin reads from its configuration (`config` in
/// plugins.json, a profile's override, or `PLUGBOARD_CONFIG_NETWORKING_*`).
enum NetworkingSettings {
  static let baseURL = Setting<String>(
    "baseURL", default: "https://issues.example.com/api", summary: "where the issue tracker's API is")
  static let timeout = Setting<Duration>(
    "timeout", default: .seconds(10), summary: "how long one request may take")
  static let apiToken = Setting<String?>(
    "apiToken", secret: true, summary: "a token sent with every request, if the server needs one")

  static let all: [any DeclaredSetting] = [baseURL, timeout, apiToken]
}

/// The settings an API client uses, read once when the plugin is configured.
struct Endpoint: Sendable {
  let baseURL: String
  let timeout: Duration
  let hasToken: Bool

  init(_ configuration: PluginConfiguration) throws {
    baseURL = try configuration[NetworkingSettings.baseURL]
    timeout = try configuration[NetworkingSettings.timeout]
    hasToken = try configuration[NetworkingSettings.apiToken] != nil
  }

  /// Printed before each fetch, so a run shows which profile's settings it has.
  func announce(_ path: String) {
    let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
    let token = hasToken ? ", with API token" : ""
    print("Networking: GET \(baseURL)\(path) (timeout \(seconds) s\(token))")
  }
}
