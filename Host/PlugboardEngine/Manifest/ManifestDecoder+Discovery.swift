/// Decoding of the keys of drop-in deployment and optional plugins: the
/// top-level `pluginFolders`, and a plugin's `optional`.
extension ManifestDecoder {
  /// How many drop-in folders one manifest may name.
  static let pluginFolderLimit = 64

  /// `pluginFolders`: a list of non-empty folder paths.
  mutating func folders(_ value: JSONValue?) -> [String] {
    guard let value else { return [] }
    let path = ManifestPath.root.key("pluginFolders")
    let folders = roots(value, at: path)
    guard folders.count <= Self.pluginFolderLimit else {
      report(path, "expected at most \(Self.pluginFolderLimit) folders, found \(folders.count)")
      return []
    }
    return folders
  }

  /// A boolean member that is false when absent.
  mutating func flag(_ value: JSONValue?, at path: ManifestPath) -> Bool {
    guard let value else { return false }
    guard case .bool(let flag) = value else {
      report(path, "expected a boolean, found \(value.kindDescription)")
      return false
    }
    return flag
  }
}
