import PlugboardSignatures

/// Who signed one library of a plugin, as `check`, `list` and `explain`
/// show it: the allowed signers line that let the key sign (its
/// principals, the file and line) and the key's fingerprint as
/// `ssh-keygen -l` prints it.
package struct LibrarySignature: Sendable, Equatable {
  /// The signed library's canonical path.
  package let library: String
  /// The principals of the allowed signers line, as written (`team-a-*`).
  package let principals: String
  /// `SHA256:…`.
  package let fingerprint: String
  /// The allowed signers file and the line that allowed the key.
  package let allowedSigners: String
  package let line: Int

  init(library: String, signer: VerifiedSigner, allowedSigners: String) {
    self.library = library
    principals = signer.entry.principals.description
    fingerprint = signer.key.fingerprint
    self.allowedSigners = allowedSigners
    line = signer.entry.line
  }

  /// `team-a-* SHA256:…`, printable whatever the allowed signers file holds.
  package var signer: String { "\(Terminal.sanitize(principals)) \(fingerprint)" }
}
