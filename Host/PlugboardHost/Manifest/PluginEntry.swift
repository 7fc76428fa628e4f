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

  public init(index: Int, name: String, path: String, enabled: Bool = true) {
    self.index = index
    self.name = name
    self.path = path
    self.enabled = enabled
  }
}
