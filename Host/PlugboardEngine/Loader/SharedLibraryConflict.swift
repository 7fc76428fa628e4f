/// A plugin that ships a library beside it (found through its run path)
/// while another plugin already loaded a different file of the same name:
/// the dynamic loader matches a needed library by its name, so the plugin
/// uses the other plugin's file, and which file serves both depends on the
/// order of the manifest. The plugin still loads; `plugboard check`
/// reports it as a warning, and an unresolved symbol it causes names it.
package struct SharedLibraryConflict: Sendable, Equatable {
  /// The needed name, `libAppContracts.so`.
  package let library: String
  /// The plugin that loaded second, and its library.
  package let plugin: String
  package let pluginFile: String
  /// The file beside that plugin, which was not used.
  package let ownCopy: String
  /// The file loaded first, which serves both, and the plugin that loaded it.
  package let loadedCopy: String
  package let loadedBy: String

  /// The Swift module the library holds, by SwiftPM's naming
  /// (`libAppContracts.so` holds `AppContracts`).
  package var module: String {
    var name = Substring(library)
    if name.hasPrefix("lib") { name = name.dropFirst(3) }
    if let dot = name.firstIndex(of: ".") { name = name[..<dot] }
    return String(name)
  }

  /// The complete sentence.
  package var message: String {
    "plugin '\(plugin)' (\(pluginFile)) ships \(ownCopy), but plugin '\(loadedBy)' loaded a different "
      + "\(library) first, \(loadedCopy), and the dynamic loader matches libraries by name: plugin "
      + "'\(plugin)' uses \(loadedCopy), not the copy beside it"
  }
}
