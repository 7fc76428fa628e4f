import PlugboardKit

/// One element of the manifest's `plugins` array.
package struct PluginEntry: Equatable, Sendable {
  /// Its position in `plugins`, for messages (`plugins[2]`).
  package let index: Int
  /// The name the plugin must report for itself.
  package let name: String
  /// The library's path as written; relative to the manifest's folder.
  package private(set) var path: String
  /// A disabled plugin is listed but not loaded.
  package let enabled: Bool
  /// The profiles the plugin loads in (`"profiles": ["mock"]`, or
  /// `["!live"]` for every profile but `live`); nil for every profile.
  package let profiles: ProfileCondition?
  /// The library's expected SHA-256 (`"sha256"`), 64 lower-case
  /// hexadecimal digits, or nil when the plugin is not pinned. A pinned
  /// plugin whose file has another digest is refused before any of its
  /// code runs; `plugboard pin` writes it.
  package let sha256: String?
  /// `"optional": true`: the deployment runs without the plugin when it
  /// fails, at any stage; its failure is a warning, not a problem.
  package var optional: Bool = false
  /// The drop-in folder the plugin was discovered in, as `pluginFolders`
  /// writes it; nil for a plugin the manifest lists by path. For a
  /// discovered plugin, ``path`` is the library's path and ``name`` the name
  /// it reports (its file name without `lib` and `.so` until it reported
  /// one); ``index`` is the manifest entry that gives its settings by name,
  /// or -1 when none does.
  package var discoveredIn: String? = nil
  /// `"config"`: the plugin's settings in every profile, by setting name
  /// (see Docs/configuration.md); empty when absent.
  package var config: [String: SettingValue] = [:]
  /// `"trust"`: whose signatures vouch for this plugin, replacing its
  /// folder's and the manifest's; nil when absent.
  package var trust: SignatureTrust? = nil

  package init(
    index: Int, name: String, path: String, enabled: Bool = true, profiles: ProfileCondition? = nil,
    sha256: String? = nil
  ) {
    self.index = index
    self.name = name
    self.path = path
    self.enabled = enabled
    self.profiles = profiles
    self.sha256 = sha256
  }

  /// The plugin found at `file` in the drop-in folder `folder` that this
  /// name-only entry names. One rule for what such an entry carries:
  /// everything a listed entry does (`enabled`, `profiles`, `sha256`,
  /// `optional`, `config`) applies as it would to a listed plugin; only the
  /// library's place comes from discovery instead of a `path`.
  package func discovered(at file: String, in folder: String) -> PluginEntry {
    var entry = self
    entry.path = file
    entry.discoveredIn = folder
    return entry
  }

  /// Whether the plugin loads when `profile` is active: enabled, and
  /// either not limited to profiles or limited to ones that match.
  package func loads(inProfile profile: String?) -> Bool {
    enabled && (profiles?.matches(profile) ?? true)
  }
}
