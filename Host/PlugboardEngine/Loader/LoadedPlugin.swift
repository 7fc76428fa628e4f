import PlugboardKit

/// A plugin that passed every check and handed over its assemblies.
package struct LoadedPlugin {
  /// Its element of the manifest.
  package let entry: PluginEntry
  /// The library's canonical absolute path.
  package let file: String
  /// The version the plugin reports for itself.
  package let version: String
  /// The PlugboardKit version it was compiled against, such as
  /// `1.0.0+1f2e…`: the host's, or an older compatible one.
  package let kitVersion: String
  /// What the plugin contributes to the container.
  package let bundle: PluginBundle
  /// Libraries it ships beside it that lost to another plugin's file of
  /// the same name; `plugboard check` warns of each.
  package var sharedLibraryConflicts: [SharedLibraryConflict] = []
  /// Who signed it and the neighbours loaded with it, plugin first; empty
  /// when no signature was checked (no trust block applies, it is pinned,
  /// or it is unsigned where signatures are not required).
  package var signatures: [LibrarySignature] = []

  package var name: String { entry.name }
}
