import PlugboardSignatures

/// Why a plugin is refused at vet for its signatures, or its neighbour's:
/// rendered as the rest of "plugin 'X' (path) …", naming the file, the
/// signer found (or none), the allowed signers file and the fix.
struct SignatureRefusal: Error, Equatable {
  enum Reason: Error, Equatable {
    /// No signature file, and the trust requires one.
    case unsigned(String)
    /// The signature file exists but cannot be read.
    case unreadableSignature(String, String)
    /// The signature was read and refused; `signer` the key it names, as
    /// the allowed signers file knows it.
    case rejected(String, SignatureError, signer: String?)
    /// The library cannot be read to check its signature.
    case unreadable(SystemCallError)
    /// Its dynamic section cannot be read.
    case malformed(String)
    /// A library found through a run path entry other than `$ORIGIN`,
    /// which the loader maps itself, so no checked copy can take its place.
    case elsewhere(entry: String)
    /// A run path entry uses `$ORIGIN` inside a longer path.
    case originInPath(String)
    /// A neighbour's pin, which wins over its signature, does not match.
    case pinMismatch(place: String, expected: String, found: String)
    /// The allowed signers or revoked keys file cannot be used.
    case trustFile(TrustFileProblem)
  }

  let reason: Reason
  /// The library refused: the plugin's, or a neighbour's canonical path.
  let library: String
  /// The neighbour's name (`libAppContracts.so`), nil for the plugin.
  let neighbour: String?
  /// The name its signer must be allowed to sign.
  let principal: String
  let trust: SignatureTrust
  /// The allowed signers file, absolute.
  let allowedSigners: String

  /// The rest of the sentence after "plugin 'X' (path) ".
  var detail: String {
    let shown = Terminal.sanitize(library)
    let subject =
      neighbour.map { "needs \(Terminal.sanitize($0)), which it loads from \(shown), and which is" } ?? "is"
    let file = Terminal.sanitize(allowedSigners)
    let sign = SignatureAdvice.signCommand(shown)
    let listed = SignatureAdvice.listedKey(allowedSigners: allowedSigners, principal: principal)
    switch reason {
    case .trustFile(let problem):
      return "cannot have its signature checked: \(problem.text)"
    case .unreadable(let failure):
      return "\(subject) unreadable, so its signature cannot be checked: \(failure)"
    case .malformed(let found):
      return "\(subject) not a shared library that can be loaded: its dynamic section has \(found)"
    case .originInPath(let entry):
      return
        "\(subject) built with the run path entry '\(Terminal.sanitize(entry))'; a signed plugin's libraries can use "
        + "$ORIGIN only as a whole entry (their neighbours in their own folder) — rebuild it with that run path"
    case .elsewhere(let entry):
      return
        "\(subject) found through the run path entry '\(Terminal.sanitize(entry))', where the dynamic loader "
        + "maps that file and not a checked copy, so its signature cannot vouch for what is loaded, and "
        + "\(trust.place).requireSignatures is true — ship it beside the plugin and rebuild with $ORIGIN as that "
        + "run path entry, or install it in a system folder"
    case .pinMismatch(let place, let expected, let found):
      return
        "\(subject) does not match its pin, which wins over a signature: \(place) is \(expected), the file's "
        + "SHA-256 is \(found) — if the new file is trusted, run 'plugboard pin' to refresh the pins"
    case .unsigned(let signature):
      return "\(subject) not signed: \(Terminal.sanitize(signature)) does not exist and "
        + "\(trust.place).requireSignatures is true (signer: none; allowed signers: \(file)) — sign it with "
        + "\(listed): \(sign)"
    case .unreadableSignature(let signature, let reason):
      return "\(subject) refused: its signature \(Terminal.sanitize(signature)) cannot be read: \(reason) "
        + "(signer: unknown; allowed signers: \(file)) — make it a readable file, or sign again: \(sign)"
    case .rejected(let signature, let error, let signer):
      return "\(subject) refused by its signature \(Terminal.sanitize(signature)): \(error) (signer: "
        + "\(signer ?? "unknown"); allowed signers: \(file)) — "
        + SignatureAdvice.fix(error, sign: sign, listed: listed, principal: principal)
    }
  }
}
