import Testing

@testable import PlugboardSignatures

/// Reading allowed signers and revoked keys files as OpenSSH defines them:
/// what each line means, and each refusal with its line.
@Suite struct AllowedSignersTests {
  /// RFC 8032's first test key, as OpenSSH writes it.
  static let key = SSHPublicKey(key: [UInt8](hex: RFC8032Vectors.all[0].publicKey))
  static let other = SSHPublicKey(key: [UInt8](hex: RFC8032Vectors.all[1].publicKey))

  private func read(_ text: String) throws(SignatureError) -> AllowedSigners {
    try AllowedSigners(bytes: Array(text.utf8), file: "allowed_signers")
  }

  @Test func aLineNamesPrincipalsOptionsKeyAndComment() throws {
    let signers = try read(
      """
      # the release keys
      team-a-*,!team-a-legacy namespaces="plugboard-plugin,git" \(Self.key) release key, team A

      "team b" \(Self.other)
      """)
    #expect(signers.entries.count == 2)
    let first = signers.entries[0]
    #expect(first.line == 2)
    #expect(first.principals.matches("team-a-login"))
    #expect(!first.principals.matches("team-a-legacy"))
    #expect(!first.principals.matches("team-b-login"))
    #expect(first.namespaces?.matches("plugboard-plugin") == true)
    #expect(first.namespaces?.matches("file") == false)
    #expect(first.key == Self.key)
    #expect(first.comment == "release key, team A")
    #expect(signers.entries[1].principals.matches("team b"))
    #expect(signers.entries[1].line == 4)
  }

  @Test func aKeyIsAllowedOnlyForTheLinesPrincipalsAndNamespaces() throws {
    let signers = try read("login,auth namespaces=\"plugboard-plugin\" \(Self.key)\n")
    #expect(
      signers.entry(permitting: "login", key: Self.key, namespace: "plugboard-plugin", at: 0)?.line == 1)
    #expect(signers.entry(permitting: "shell", key: Self.key, namespace: "plugboard-plugin", at: 0) == nil)
    #expect(signers.entry(permitting: "login", key: Self.other, namespace: "plugboard-plugin", at: 0) == nil)
    #expect(signers.entry(permitting: "login", key: Self.key, namespace: "git", at: 0) == nil)
  }

  @Test func validityBoundsTheTimesAKeyMaySign() throws {
    let signers = try read(
      "* valid-after=\"20250101Z\",valid-before=\"20260101120000Z\" \(Self.key)\n")
    let entry = try #require(signers.entries.first)
    #expect(entry.validAfter == 1_735_689_600)
    #expect(entry.validBefore == 1_767_268_800)
    #expect(signers.entry(permitting: "x", key: Self.key, namespace: "n", at: 1_735_689_599) == nil)
    #expect(signers.entry(permitting: "x", key: Self.key, namespace: "n", at: 1_750_000_000) != nil)
    #expect(signers.entry(permitting: "x", key: Self.key, namespace: "n", at: 1_767_268_801) == nil)
  }

  @Test func aCertificateAuthorityIsRefusedAsUnsupported() {
    #expect(
      throws: SignatureError.unsupportedOption(file: "allowed_signers", line: 2, option: "cert-authority")
    ) {
      try read("# CA\n*.example.com cert-authority \(Self.key)\n")
    }
    #expect(
      "\(SignatureError.unsupportedOption(file: "allowed_signers", line: 2, option: "cert-authority"))"
        == "allowed_signers:2: the option cert-authority is not supported: list each signer's own key instead of a certificate authority"
    )
  }

  @Test func otherKeyTypesAreKeptButNeverMatch() throws {
    let signers = try read("* ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ== rsa\n* \(Self.key)\n")
    #expect(signers.entries.count == 2)
    #expect(signers.entries[0].key == nil)
    #expect(signers.entries(for: Self.key, namespace: "n", at: 0).map(\.line) == [2])
  }

  @Test(arguments: [
    ("*", "allowed_signers:1: no key after the principals"),
    ("* nope \(key)", "allowed_signers:1: unknown option or key type \"nope\""),
    ("* namespaces \(key)", "allowed_signers:1: namespaces needs a value: namespaces=\"plugboard-plugin\""),
    ("* valid-after=\"2025\" \(key)", "allowed_signers:1: valid-after needs a time YYYYMMDD[HHMM[SS]][Z]"),
    ("* ssh-ed25519 !!!!", "allowed_signers:1: the key is not base64"),
    ("\"unclosed \(key)", "allowed_signers:1: no principals"),
    (
      "* ssh-ed25519 AAAA",
      "allowed_signers:1: the key does not read: a malformed public key: the blob is truncated"
    ),
    ("* \u{1B}[31m \(key)", "allowed_signers:1: unknown option or key type \"\\x1b[31m\""),
  ])
  func aBadLineIsRefusedWithItsNumberAndReason(line: String, message: String) {
    #expect(throws: (any Error).self) { try read(line) }
    do {
      _ = try read(line)
    } catch {
      #expect("\(error)" == message)
    }
  }

  @Test func anOversizedFileIsRefusedBeforeItIsRead() {
    let huge = [UInt8](repeating: UInt8(ascii: "#"), count: AllowedSigners.maximumSize + 1)
    #expect(
      throws: SignatureError.oversized(what: "the allowed signers file a", limit: AllowedSigners.maximumSize)
    ) {
      try AllowedSigners(bytes: huge, file: "a")
    }
  }

  @Test func patternsMatchAsOpenSSHDoes() {
    #expect(PatternList("*").matches("anything"))
    #expect(PatternList("log?n").matches("login"))
    #expect(!PatternList("log?n").matches("logn"))
    #expect(PatternList("a*b*c").matches("aXXbYYc"))
    #expect(!PatternList("a*b*c").matches("aXXbYY"))
    #expect(PatternList("x,team-*").matches("team-a"))
    #expect(!PatternList("team-*,!team-x").matches("team-x"))
    #expect(!PatternList("!team-x").matches("team-y"))
  }

  /// One backtracking point: a pattern of many stars against a long name
  /// costs their product, not an exponential.
  @Test func aPathologicalPatternStaysCheap() {
    let pattern = String(repeating: "*a", count: 2000) + "b"
    let name = String(repeating: "a", count: 4000)
    #expect(!PatternList(pattern).matches(name))
  }

  @Test func revokedKeysAreReadOneALine() throws {
    let revoked = try RevokedKeys(
      bytes: Array(
        "# lost laptop\n\(Self.key) old key\n\nssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ== rsa\n".utf8),
      file: "revoked_keys")
    #expect(revoked.contains(Self.key))
    #expect(!revoked.contains(Self.other))
  }

  @Test func aKeyRevocationListIsRefusedAsUnsupported() {
    let krl = Array("SSHKRL\n\0".utf8) + [0, 0, 0, 1]
    #expect(throws: SignatureError.unsupportedRevocationList(file: "revoked_keys")) {
      try RevokedKeys(bytes: krl, file: "revoked_keys")
    }
  }

  @Test func aBadRevokedLineIsRefused() {
    #expect(throws: SignatureError.badLine(file: "r", line: 1, reason: "unknown key type \"garbage\"")) {
      try RevokedKeys(bytes: Array("garbage AAAA\n".utf8), file: "r")
    }
  }
}
