/// Where a setting's value came from, so an error can say what to edit.
public enum ConfigurationSource: Sendable, Hashable, CustomStringConvertible {
  /// The plugin's manifest entry, at a key path: `plugins[0].config.timeout`.
  case manifest(keyPath: String)
  /// A profile's override: `profiles.mock.config.Networking.timeout`.
  case profile(String, keyPath: String)
  /// An environment variable, by name.
  case environment(variable: String)
  /// Given in code (a test's configuration).
  case code

  /// `plugins[0].config.timeout`, `profiles.mock.config.Networking.timeout`,
  /// `environment variable PLUGBOARD_CONFIG_NETWORKING_TIMEOUT`, `code`.
  public var description: String {
    switch self {
    case .manifest(let keyPath), .profile(_, let keyPath): keyPath
    case .environment(let variable): "environment variable \(variable)"
    case .code: "code"
    }
  }
}

/// A value configuration gives a setting, with where it came from.
public struct ConfiguredValue: Sendable, Hashable {
  public let value: SettingValue
  public let source: ConfigurationSource

  public init(_ value: SettingValue, from source: ConfigurationSource = .code) {
    self.value = value
    self.source = source
  }
}
