import PlugboardKit

/// One element of the manifest's `profiles` object: a named configuration
/// of the deployment, such as `live` or `mock`.
///
/// A profile decides three things: which plugins load (a plugin's own
/// `profiles` list), which profile-tagged registrations take part
/// (`inProfiles(...)` in the plugins), and, per service, which named
/// registration serves unnamed requests (``services``).
public struct ProfileDeclaration: Equatable, Sendable {
  /// The name `activeProfile`, `--profile` and `PLUGBOARD_PROFILE` use.
  public let name: String
  /// What the profile is for, for people; shown by `list`.
  public let description: String?
  /// The per-service choices, in the order written.
  public let services: [ServiceChoice]
  /// `"config"`: per plugin name, the settings this profile overrides.
  public var config: [String: [String: SettingValue]] = [:]

  public init(name: String, description: String? = nil, services: [ServiceChoice] = []) {
    self.name = name
    self.description = description
    self.services = services
  }

  /// Where the profile is written in the manifest: `profiles.mock`.
  public var path: ManifestPath { ManifestPath.root.key("profiles").key(name) }
}
