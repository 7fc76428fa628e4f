/// A `"trust"` block: whose signatures vouch for plugins. Written at the
/// top level for every plugin, in a `plugins` entry for that plugin, or in
/// a `pluginFolders` element for the plugins of that drop-in folder; the
/// nearest one applies whole (a plugin's, then its folder's, then the
/// top level's).
///
///     "trust": {
///       "allowedSigners": "allowed_signers",
///       "revokedKeys": "revoked_keys",
///       "requireSignatures": true
///     }
///
/// Each plugin's `lib….so.sig`, and its neighbours', must then be an
/// OpenSSH signature (`ssh-keygen -Y sign -n plugboard-plugin`) by a key
/// the allowed signers file lists for its name (see ``PluginSignatures``).
package struct SignatureTrust: Equatable, Sendable {
  /// `allowedSigners`: the allowed signers file, as written (absolute, or
  /// relative to the manifest's folder).
  package let allowedSigners: String
  /// `revokedKeys`: the revoked keys file, as written; nil when absent.
  package let revokedKeys: String?
  /// `requireSignatures`: an unsigned plugin or neighbour is refused when
  /// true (the default); when false it loads, and signed ones are still
  /// verified.
  package let requireSignatures: Bool
  /// Where the block is written (`trust`, `plugins[2].trust`,
  /// `pluginFolders[0].trust`), for messages.
  package let place: String

  package init(
    allowedSigners: String, revokedKeys: String? = nil, requireSignatures: Bool = true, place: String
  ) {
    self.allowedSigners = allowedSigners
    self.revokedKeys = revokedKeys
    self.requireSignatures = requireSignatures
    self.place = place
  }
}

extension Manifest {
  /// The trust block that applies to `entry`: its own, else its drop-in
  /// folder's, else the manifest's; nil when none does.
  package func signatureTrust(for entry: PluginEntry) -> SignatureTrust? {
    if let own = entry.trust { return own }
    if let folder = entry.discoveredIn, let index = pluginFolders.firstIndex(of: folder),
      index < pluginFolderTrust.count, let trust = pluginFolderTrust[index]
    {
      return trust
    }
    return trust
  }
}
