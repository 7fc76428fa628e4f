/// The PlugboardKit a loaded plugin was compiled against, as `list`,
/// `check` and `explain` show it: the host's own release, or an older one
/// the host accepts because Kit's semantic version promises compatibility
/// (Kit/ABI.md).
package struct PluginKitVersion: Encodable, Sendable, Equatable {
  /// What the plugin recorded, build metadata included: `1.0.0+1f2e…`.
  package let version: String
  /// "same" (the host's release) or "older" (an older compatible one); see
  /// ``KitCompatibility/name``.
  package let compatibility: String
  /// The host's version, for the text; the JSON has it elsewhere.
  private let host: String

  private enum CodingKeys: String, CodingKey { case version, compatibility }

  package init(plugin: String, host: String) {
    version = plugin
    compatibility = KitCompatibility(plugin: plugin, host: host).name
    self.host = host
  }

  /// `PlugboardKit 1.2.0 (the host's)`, `PlugboardKit 1.2.1 (the host's
  /// minor release, 1.2.0)` or `PlugboardKit 1.0.0 (older than the host's
  /// 1.2.0, compatible)`.
  package var text: String {
    let release = KitCompatibility.release(of: version)
    let hostRelease = KitCompatibility.release(of: host)
    if compatibility == KitCompatibility.older.name {
      return "PlugboardKit \(release) (older than the host's \(hostRelease), compatible)"
    }
    if release == hostRelease { return "PlugboardKit \(release) (the host's)" }
    return "PlugboardKit \(release) (the host's minor release, \(hostRelease))"
  }
}
