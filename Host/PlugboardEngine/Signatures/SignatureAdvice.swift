import PlugboardSignatures

/// The fix a refused signature's message ends with, shared by the loader's
/// refusals at vet and `plugboard verify`, so that a publisher's CI and the
/// operator's deployment give the same advice for the same signature.
package enum SignatureAdvice {
  /// `ssh-keygen -Y sign -n plugboard-plugin -f KEY <file>`; `file` is
  /// shown as given, so the caller sanitises it.
  package static func signCommand(_ file: String) -> String {
    "ssh-keygen -Y sign -n \(SSHSignature.pluginNamespace) -f KEY \(file)"
  }

  /// `a key <allowed signers> lists for "<principal>"`, the key a fix asks
  /// for; both are sanitised here. Without an allowed signers file, the
  /// one the deployment keeps.
  package static func listedKey(allowedSigners: String?, principal: String) -> String {
    let file = allowedSigners.map(Terminal.sanitize) ?? "the deployment's allowed signers file"
    return "a key \(file) lists for \"\(Terminal.sanitize(principal))\""
  }

  /// What to do about `error`: `sign` is ``signCommand(_:)`` for the
  /// file, `listed` is ``listedKey(allowedSigners:principal:)``.
  package static func fix(_ error: SignatureError, sign: String, listed: String, principal: String) -> String
  {
    switch error {
    case .invalid:
      "the file changed since it was signed, or the signature is another file's: deploy the file that was "
        + "signed, or sign this one: \(sign)"
    case .wrongNamespace:
      "sign it in plugboard's namespace: \(sign)"
    case .revoked:
      "sign it with \(listed) that is not revoked: \(sign)"
    case .notAllowed:
      "sign it with \(listed), or list this key there with a principal pattern that matches "
        + "\"\(Terminal.sanitize(principal))\" and namespaces=\"\(SSHSignature.pluginNamespace)\""
    default:
      "sign it again with an Ed25519 key: \(sign)"
    }
  }
}
