/// Why a signature, an allowed signers file or a revoked keys file is
/// refused: each a value with its context, rendered to one line by
/// `description`.
package enum SignatureError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The signature file is larger than any SSH signature of a supported
  /// key (`limit` bytes).
  case oversized(what: String, limit: Int)
  /// No `-----BEGIN SSH SIGNATURE-----` … `-----END SSH SIGNATURE-----`
  /// armor, or a line in it that is not base64.
  case notArmored(String)
  /// The armored blob does not read as an SSHSIG envelope.
  case malformed(String)
  /// A public key blob that does not read.
  case malformedKey(String)
  /// An SSHSIG version other than 1.
  case unsupportedVersion(UInt32)
  /// A key type other than `ssh-ed25519` (RSA, ECDSA, security keys).
  case unsupportedKeyType(String)
  /// A message hash other than `sha512` and `sha256`.
  case unsupportedHash(String)
  /// The signature was made for another namespace (`ssh-keygen -Y sign -n`).
  case wrongNamespace(found: String, expected: String)
  /// The Ed25519 check failed: the file changed since it was signed, or the
  /// signature is not this key's.
  case invalid(Ed25519.Rejection)
  /// A line of an allowed signers or revoked keys file does not read.
  case badLine(file: String, line: Int, reason: String)
  /// An allowed signers line uses an OpenSSH feature Plugboard does not
  /// implement (`cert-authority`), refused rather than ignored.
  case unsupportedOption(file: String, line: Int, option: String)
  /// The revoked keys file is an OpenSSH KRL, which Plugboard does not read.
  case unsupportedRevocationList(file: String)
  /// The signing key is listed in the revoked keys file.
  case revoked(fingerprint: String, file: String)
  /// No line of the allowed signers file names this key for this
  /// principal and namespace at this time.
  case notAllowed(fingerprint: String, principal: String?, file: String)

  package var description: String {
    switch self {
    case .oversized(let what, let limit):
      "\(what) is larger than \(limit) bytes"
    case .notArmored(let reason):
      "not an SSH signature (\(reason)): expected the armor -----BEGIN SSH SIGNATURE----- that ssh-keygen -Y sign writes"
    case .malformed(let reason):
      "a malformed SSH signature: \(reason)"
    case .malformedKey(let reason):
      "a malformed public key: \(reason)"
    case .unsupportedVersion(let version):
      "SSH signature version \(version) is not supported (only version 1 is)"
    case .unsupportedKeyType(let name):
      "the key type \(name) is not supported: Plugboard verifies ssh-ed25519 signatures only"
    case .unsupportedHash(let name):
      "the hash algorithm \(name) is not supported (sha512 and sha256 are)"
    case .wrongNamespace(let found, let expected):
      "the signature is for the namespace \"\(found)\", not \"\(expected)\" (sign with ssh-keygen -Y sign -n \(expected))"
    case .invalid(let rejection):
      "the signature does not verify: \(rejection)"
    case .badLine(let file, let line, let reason):
      "\(file):\(line): \(reason)"
    case .unsupportedOption(let file, let line, let option):
      "\(file):\(line): the option \(option) is not supported: list each signer's own key instead of a certificate authority"
    case .unsupportedRevocationList(let file):
      "\(file) is an OpenSSH key revocation list (KRL), which Plugboard does not read: list the revoked public keys one a line instead"
    case .revoked(let fingerprint, let file):
      "the signing key \(fingerprint) is revoked by \(file)"
    case .notAllowed(let fingerprint, let principal, let file):
      if let principal {
        "the signing key \(fingerprint) is not allowed to sign \"\(principal)\" by \(file)"
      } else {
        "the signing key \(fingerprint) is not listed in \(file)"
      }
    }
  }
}
