/// Decoding of the `trust` blocks (see ``SignatureTrust``): at the top
/// level, in a plugin entry, and in a drop-in folder written as an object.
extension ManifestDecoder {
  static let trustKeys = ["allowedSigners", "revokedKeys", "requireSignatures"]
  static let trustObject = AllowedKeys(trustKeys)
  static let folderKeys = ["path", "trust"]
  static let folderObject = AllowedKeys(folderKeys)

  /// The `trust` object at `node`, or nil after reporting its problems.
  mutating func trustBlock(_ node: Int, at path: ManifestPath) -> SignatureTrust? {
    guard let members = object(node, at: path, allowed: Self.trustObject, reserved: [:]) else { return nil }
    let allowed = nonEmptyString(members["allowedSigners"], key: "allowedSigners", in: path)
    var revoked: String?
    if let value = members["revokedKeys"] {
      revoked = nonEmptyString(value, key: "revokedKeys", in: path)
      if revoked == nil { return nil }
    }
    var require = true
    if let value = members["requireSignatures"] {
      guard case .bool(let flag) = value else {
        report(path.key("requireSignatures"), "expected a boolean, found \(value.kindDescription)")
        return nil
      }
      require = flag
    }
    guard let allowed else { return nil }
    return SignatureTrust(
      allowedSigners: allowed, revokedKeys: revoked, requireSignatures: require, place: path.description)
  }

  /// One element of `pluginFolders`: a folder's path, or
  /// `{"path": "plugins.d", "trust": {…}}` for a folder whose plugins
  /// have their own trust.
  mutating func pluginFolder(_ node: Int, at path: ManifestPath) -> (folder: String, trust: SignatureTrust?)?
  {
    let tape = self.tape
    switch tape.kind(node) {
    case .string:
      let folder = tape.text(node)
      guard !folder.isEmpty else {
        report(path, "expected a non-empty string")
        return nil
      }
      return (folder, nil)
    case .object:
      guard let members = object(node, at: path, allowed: Self.folderObject, reserved: [:]) else {
        return nil
      }
      let folder = nonEmptyString(members["path"], key: "path", in: path)
      guard let node = members.node("trust") else { return folder.map { ($0, nil) } }
      let trust = trustBlock(node, at: path.key("trust"))
      guard let folder, let trust else { return nil }
      return (folder, trust)
    default:
      report(
        path,
        "expected a folder's path, or an object {\"path\": …, \"trust\": {…}}, found "
          + tape.kindDescription(node))
      return nil
    }
  }
}
