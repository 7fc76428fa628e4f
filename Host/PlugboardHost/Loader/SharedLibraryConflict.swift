/// A plugin that ships a library beside it (found through its run path)
/// while another plugin already loaded a different file of the same name:
/// the dynamic loader matches a needed library by its name, so the plugin
/// uses the other plugin's file, and which file serves both depends on the
/// order of the manifest. The plugin still loads; `plugboard check`
/// reports it as a warning, and an unresolved symbol it causes names it.
public struct SharedLibraryConflict: Sendable, Equatable {
  /// The needed name, `libAppContracts.so`.
  public let library: String
  /// The plugin that loaded second, and its library.
  public let plugin: String
  public let pluginFile: String
  /// The file beside that plugin, which was not used.
  public let ownCopy: String
  /// The file loaded first, which serves both, and the plugin that loaded it.
  public let loadedCopy: String
  public let loadedBy: String

  /// The Swift module the library holds, by SwiftPM's naming
  /// (`libAppContracts.so` holds `AppContracts`).
  public var module: String {
    var name = Substring(library)
    if name.hasPrefix("lib") { name = name.dropFirst(3) }
    if let dot = name.firstIndex(of: ".") { name = name[..<dot] }
    return String(name)
  }

  /// The complete sentence.
  public var message: String {
    "plugin '\(plugin)' (\(pluginFile)) ships \(ownCopy), but plugin '\(loadedBy)' loaded a different "
      + "\(library) first, \(loadedCopy), and the dynamic loader matches libraries by name: plugin "
      + "'\(plugin)' uses \(loadedCopy), not the copy beside it"
  }
}
