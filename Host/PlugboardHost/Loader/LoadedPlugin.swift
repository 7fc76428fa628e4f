import PlugboardKit

/// A plugin that passed every check and handed over its assemblies.
public struct LoadedPlugin {
  /// Its element of the manifest.
  public let entry: PluginEntry
  /// The library's canonical absolute path.
  public let file: String
  /// The version the plugin reports for itself.
  public let version: String
  /// What the plugin contributes to the container.
  public let bundle: PluginBundle
  /// Libraries it ships beside it that lost to another plugin's file of
  /// the same name; `plugboard check` warns of each.
  public var sharedLibraryConflicts: [SharedLibraryConflict] = []

  public var name: String { entry.name }
}
