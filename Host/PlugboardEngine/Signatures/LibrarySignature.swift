import PlugboardSignatures

/// Who signed one library of a plugin, as `check`, `list` and `explain`
/// show it: the allowed signers line that let the key sign (its
/// principals, the file and line) and the key's fingerprint as
/// `ssh-keygen -l` prints it. Field names are the JSON's
/// (`common.schema.json#/$defs/signature`).
package struct LibrarySignature: Sendable, Equatable, Encodable {
  /// The plugin that loads the library: the library is the plugin's own,
  /// or a neighbour it loads from its folder.
  package let plugin: String
  /// The signed library's canonical path.
  package let library: String
  /// The principals of the allowed signers line, as written (`team-a-*`).
  package let principals: String
  /// `SHA256:…`.
  package let fingerprint: String
  /// The allowed signers file and the line that allowed the key.
  package let allowedSigners: String
  package let line: Int
  /// Whether the signature was held to the library by a proof kept from
  /// an earlier start (``SignatureProofs``) instead of hashed and checked
  /// now; not in the JSON, which says who signed, not how it was checked.
  package let verifiedEarlier: Bool

  private enum CodingKeys: String, CodingKey {
    case plugin, library, principals, fingerprint, allowedSigners, line
  }

  init(plugin: String, library: String, signer: VerifiedSigner, allowedSigners: String, verifiedEarlier: Bool)
  {
    self.plugin = plugin
    self.library = library
    principals = signer.entry.principals.description
    fingerprint = signer.key.fingerprint
    self.allowedSigners = allowedSigners
    line = signer.entry.line
    self.verifiedEarlier = verifiedEarlier
  }

  /// `libAuth.so signed by SHA256:… (/etc/plugboard/allowed_signers:3:
  /// team-a-*)`: the library's file name, then the key and the line that
  /// allowed it, as a refusal names a signer.
  package var text: String {
    let name = library.split(separator: "/").last.map(String.init) ?? library
    return "\(Terminal.sanitize(name)) signed by \(fingerprint) "
      + "(\(Terminal.sanitize(allowedSigners)):\(line): \(Terminal.sanitize(principals)))"
      + (verifiedEarlier ? ", verified at an earlier start" : "")
  }
}
