import PlugboardKit

/// One element of the manifest's `profiles` object: a named configuration
/// of the deployment, such as `live` or `mock`.
///
/// A profile decides three things: which plugins load (a plugin's own
/// `profiles` list), which profile-tagged registrations take part
/// (`inProfiles(...)` in the plugins), and, per service, which named
/// registration serves unnamed requests (``services``), and which
/// contributions take part in extension points (``contributions``).
package struct ProfileDeclaration: Equatable, Sendable {
  /// The name `activeProfile`, `--profile` and `PLUGBOARD_PROFILE` use.
  package let name: String
  /// What the profile is for, for people; shown by `list`.
  package let description: String?
  /// The per-service choices, in the order written.
  package let services: [ServiceChoice]
  /// `"contributions"`: per extension point, the contributions this
  /// profile keeps or leaves out; each replaces the manifest's top-level
  /// rule for the same extension point.
  package var contributions: [ContributionRule] = []
  /// `"decorators"`: per decorated service, the decorators this profile
  /// keeps or leaves out, in the same shape.
  package var decorators: [ContributionRule] = []
  /// `"config"`: per plugin name, the settings this profile overrides.
  package var config: [String: [String: SettingValue]] = [:]

  package init(name: String, description: String? = nil, services: [ServiceChoice] = []) {
    self.name = name
    self.description = description
    self.services = services
  }

  /// Where the profile is written in the manifest: `profiles.mock`.
  package var path: ManifestPath { ManifestPath.root.key("profiles").key(name) }
}
