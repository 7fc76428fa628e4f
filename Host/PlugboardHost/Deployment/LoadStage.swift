/// The steps of bringing a deployment up, in order. Every diagnostic names
/// the step that failed, so a reader knows how far the plugin got.
public enum LoadStage: String, Sendable, CaseIterable, Codable {
  case readManifest = "read manifest"
  case locate
  case open
  case findEntry = "find entry"
  case checkVersions = "check versions"
  case assemble
  /// Applying the active profile's per-service choices to the assembled
  /// container.
  case applyProfile = "apply profile"
  /// Resolving and running the `Application` (`plugboard run`).
  case run
}
