import PlugboardKit

/// One element of the manifest's `plugins` array.
public struct PluginEntry: Equatable, Sendable {
  /// Its position in `plugins`, for messages (`plugins[2]`).
  public let index: Int
  /// The name the plugin must report for itself.
  public let name: String
  /// The library's path as written; relative to the manifest's folder.
  public let path: String
  /// A disabled plugin is listed but not loaded.
  public let enabled: Bool
  /// The profiles the plugin loads in (`"profiles": ["mock"]`, or
  /// `["!live"]` for every profile but `live`); nil for every profile.
  public let profiles: ProfileCondition?

  public init(
    index: Int, name: String, path: String, enabled: Bool = true, profiles: ProfileCondition? = nil
  ) {
    self.index = index
    self.name = name
    self.path = path
    self.enabled = enabled
    self.profiles = profiles
  }

  /// Whether the plugin loads when `profile` is active: enabled, and
  /// either not limited to profiles or limited to ones that match.
  public func loads(inProfile profile: String?) -> Bool {
    enabled && (profiles?.matches(profile) ?? true)
  }
}
