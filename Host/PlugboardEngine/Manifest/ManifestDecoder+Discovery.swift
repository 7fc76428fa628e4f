/// Decoding of the keys of drop-in deployment and optional plugins: the
/// top-level `pluginFolders`, and a plugin's `optional`.
extension ManifestDecoder {
  /// How many drop-in folders one manifest may name.
  static let pluginFolderLimit = 64

  /// `pluginFolders`: a list of folders, each a non-empty path or an
  /// object with its `path` and `trust`; their trust blocks beside them,
  /// by position.
  mutating func folders(_ node: Int?) -> (folders: [String], trust: [SignatureTrust?]) {
    guard let node else { return ([], []) }
    let tape = self.tape
    let path = ManifestPath.root.key("pluginFolders")
    guard tape.kind(node) == .array else {
      report(path, "expected an array of folder paths, found \(tape.kindDescription(node))")
      return ([], [])
    }
    var folders: [String] = []
    var trust: [SignatureTrust?] = []
    for (index, element) in tape.elements(node).enumerated() {
      guard let folder = pluginFolder(element, at: path.index(index)) else { continue }
      folders.append(folder.folder)
      trust.append(folder.trust)
    }
    guard folders.count <= Self.pluginFolderLimit else {
      report(path, "expected at most \(Self.pluginFolderLimit) folders, found \(folders.count)")
      return ([], [])
    }
    return (folders, trust)
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
