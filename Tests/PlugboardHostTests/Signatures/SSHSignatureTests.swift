import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardSignatures

/// Signatures made by `ssh-keygen -Y sign`, verified by Plugboard's own
/// code, and every way one is refused.
@Suite(.blocking, .enabled(if: SSHKeygen.shouldRun, SSHKeygen.missing))
struct SSHSignatureTests {
  /// A plugin-like file: a few blocks of varied bytes.
  static let library = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) }

  private func check(
    _ tool: SSHKeygen, signers: String, principal: String? = "login", revoked: String? = nil,
    file: String = "lib.so"
  ) throws -> VerifiedSigner {
    let allowed = try AllowedSigners(bytes: Array(signers.utf8), file: "allowed_signers")
    let revokedKeys = try revoked.map { try RevokedKeys(bytes: Array($0.utf8), file: "revoked_keys") }
    let contents = try tool.bytes(file)
    return try SignerCheck.verify(
      signature: try tool.bytes(file + ".sig"), digest: { SSHSignature.digest(of: contents, with: $0) },
      principal: principal, allowedSigners: allowed, revoked: revokedKeys,
      at: Int(Date().timeIntervalSince1970))
  }

  @Test func aSignatureMadeBySSHKeygenVerifiesAndNamesItsSigner() throws {
    let tool = try SSHKeygen()
    let key = try tool.makeKey("team-a")
    try tool.write("lib.so", Self.library)
    _ = try tool.sign("lib.so", with: "team-a")
    let signers = "login,auth namespaces=\"plugboard-plugin\" \(key) team A release\n"
    let signer = try check(tool, signers: signers)
    #expect(signer.key == key)
    #expect(signer.key.fingerprint == (try tool.fingerprint("team-a")))
    #expect(signer.entry.line == 1)
    #expect(
      signer.describe(allowedSignersFile: "allowed_signers")
        == "\(key.fingerprint) (allowed_signers:1: login,auth, \"team A release\")")
    // OpenSSH agrees on the same files.
    try tool.write("allowed_signers", Array(signers.utf8))
    #expect(try tool.opensshVerifies("lib.so", signers: "allowed_signers", principal: "login"))
  }

  @Test(arguments: ["sha512", "sha256"])
  func bothHashAlgorithmsVerify(hash: String) throws {
    let tool = try SSHKeygen()
    let key = try tool.makeKey("k")
    try tool.write("lib.so", Self.library)
    let signature = try SSHSignature(armored: try tool.sign("lib.so", with: "k", hash: hash))
    #expect(signature.hashAlgorithm.rawValue == hash)
    #expect(signature.publicKey == key)
    try signature.verify(message: Self.library, namespace: SSHSignature.pluginNamespace)
  }

  @Test func aTamperedFileIsRefused() throws {
    let tool = try SSHKeygen()
    let key = try tool.makeKey("k")
    try tool.write("lib.so", Self.library)
    _ = try tool.sign("lib.so", with: "k")
    var tampered = Self.library
    tampered[5000] ^= 1
    try tool.write("lib.so", tampered)
    #expect(throws: SignatureError.invalid(.mismatch)) { try check(tool, signers: "* \(key)\n") }
    #expect(
      "\(SignatureError.invalid(.mismatch))"
        == "the signature does not verify: the signature does not match the data and the key")
  }

  @Test func aSignatureForAnotherNamespaceIsRefused() throws {
    let tool = try SSHKeygen()
    let key = try tool.makeKey("k")
    try tool.write("lib.so", Self.library)
    _ = try tool.sign("lib.so", with: "k", namespace: "file")
    let expected = SignatureError.wrongNamespace(found: "file", expected: "plugboard-plugin")
    #expect(throws: expected) { try check(tool, signers: "* \(key)\n") }
    #expect(
      "\(expected)"
        == "the signature is for the namespace \"file\", not \"plugboard-plugin\" (sign with ssh-keygen -Y sign -n plugboard-plugin)"
    )
  }

  @Test func anotherTeamsKeyIsNotAllowedToSignThisPlugin() throws {
    let tool = try SSHKeygen()
    let teamA = try tool.makeKey("team-a")
    let teamB = try tool.makeKey("team-b")
    try tool.write("lib.so", Self.library)
    _ = try tool.sign("lib.so", with: "team-b")
    let signers = "login \(teamA)\nshell \(teamB)\n"
    let refusal = SignatureError.notAllowed(
      fingerprint: teamB.fingerprint, principal: "login", file: "allowed_signers")
    #expect(throws: refusal) { try check(tool, signers: signers) }
    #expect(
      "\(refusal)"
        == "the signing key \(teamB.fingerprint) is not allowed to sign \"login\" by allowed_signers")
    // Team B may sign its own plugin.
    #expect(try check(tool, signers: signers, principal: "shell").key == teamB)
    // A namespace option that leaves Plugboard's out refuses too.
    #expect(
      throws: SignatureError.notAllowed(
        fingerprint: teamB.fingerprint, principal: "login", file: "allowed_signers")
    ) {
      try check(tool, signers: "login namespaces=\"git\" \(teamB)\n")
    }
  }

  @Test func aRevokedKeyIsRefusedEvenWhenAllowed() throws {
    let tool = try SSHKeygen()
    let key = try tool.makeKey("k")
    try tool.write("lib.so", Self.library)
    _ = try tool.sign("lib.so", with: "k")
    let refusal = SignatureError.revoked(fingerprint: key.fingerprint, file: "revoked_keys")
    #expect(throws: refusal) {
      try check(tool, signers: "* \(key)\n", revoked: "# compromised\n\(key) old\n")
    }
    #expect("\(refusal)" == "the signing key \(key.fingerprint) is revoked by revoked_keys")
  }

  @Test func anExpiredKeyIsNotAllowed() throws {
    let tool = try SSHKeygen()
    let key = try tool.makeKey("k")
    try tool.write("lib.so", Self.library)
    _ = try tool.sign("lib.so", with: "k")
    #expect(
      throws: SignatureError.notAllowed(
        fingerprint: key.fingerprint, principal: "login", file: "allowed_signers")
    ) {
      try check(tool, signers: "* valid-before=\"20200101Z\" \(key)\n")
    }
  }

  @Test func aKeyRevocationListFromSSHKeygenIsRefusedAsUnsupported() throws {
    let tool = try SSHKeygen()
    _ = try tool.makeKey("k")
    let result = try Subprocess.run(
      tool.executable, ["-k", "-f", tool.folder.path + "/krl", tool.folder.path + "/k.pub"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(throws: SignatureError.unsupportedRevocationList(file: "krl")) {
      try RevokedKeys(bytes: try tool.bytes("krl"), file: "krl")
    }
  }

  /// Every prefix of a real signature file is refused, never trapped on.
  @Test func everyTruncatedEnvelopeIsRefused() throws {
    let tool = try SSHKeygen()
    _ = try tool.makeKey("k")
    try tool.write("lib.so", Self.library)
    let armored = try tool.sign("lib.so", with: "k")
    for length in 0..<armored.count - 1 {
      // The file's last bytes are the END line's newline.
      let prefix = Array(armored[..<length])
      if prefix.count >= armored.count - 1 { continue }
      #expect(throws: SignatureError.self) { try SSHSignature(armored: prefix) }
    }
    // The blob itself cut short.
    let blob = try #require(Self.blob(of: armored))
    for length in 0..<blob.count {
      #expect(throws: SignatureError.self) { try SSHSignature(blob: Array(blob[..<length])) }
    }
    #expect(throws: SignatureError.malformed("bytes after the signature")) {
      try SSHSignature(blob: blob + [0])
    }
  }

  @Test func anOversizedEnvelopeIsRefusedUnread() throws {
    let padded = [UInt8](repeating: UInt8(ascii: "A"), count: SSHSignature.maximumArmoredSize + 1)
    #expect(
      throws: SignatureError.oversized(what: "the signature file", limit: SSHSignature.maximumArmoredSize)
    ) {
      try SSHSignature(armored: padded)
    }
  }

  @Test(arguments: [
    (
      "",
      "not an SSH signature (no BEGIN line): expected the armor -----BEGIN SSH SIGNATURE----- that ssh-keygen -Y sign writes"
    ),
    (
      "-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n",
      "not an SSH signature (no END line): expected the armor -----BEGIN SSH SIGNATURE----- that ssh-keygen -Y sign writes"
    ),
    (
      "-----BEGIN SSH SIGNATURE-----\n-----END SSH SIGNATURE-----\n",
      "not an SSH signature (nothing between BEGIN and END): expected the armor -----BEGIN SSH SIGNATURE----- that ssh-keygen -Y sign writes"
    ),
    (
      "-----BEGIN SSH SIGNATURE-----\nU1N*SU0lH\n-----END SSH SIGNATURE-----\n",
      "not an SSH signature (the text between BEGIN and END is not base64): expected the armor -----BEGIN SSH SIGNATURE----- that ssh-keygen -Y sign writes"
    ),
    (
      "-----BEGIN SSH SIGNATURE-----\nAAAAAAAA\n-----END SSH SIGNATURE-----\n",
      "a malformed SSH signature: no SSHSIG preamble"
    ),
    (
      "-----BEGIN PGP SIGNATURE-----\nAAAA\n-----END PGP SIGNATURE-----\n",
      "not an SSH signature (no BEGIN line): expected the armor -----BEGIN SSH SIGNATURE----- that ssh-keygen -Y sign writes"
    ),
  ])
  func garbageArmorIsRefusedWithItsReason(text: String, message: String) {
    do {
      _ = try SSHSignature(armored: Array(text.utf8))
      Issue.record("accepted \(text)")
    } catch {
      #expect("\(error)" == message)
    }
  }

  @Test func anotherVersionAndKeyTypeAreRefusedByName() throws {
    var version2 = SSHWireWriter()
    version2.raw(Array("SSHSIG".utf8))
    version2.uint32(2)
    #expect(throws: SignatureError.unsupportedVersion(2)) { try SSHSignature(blob: version2.bytes) }
    var rsa = SSHWireWriter()
    rsa.raw(Array("SSHSIG".utf8))
    rsa.uint32(1)
    var key = SSHWireWriter()
    key.string(Array("ssh-rsa".utf8))
    key.string([1, 2, 3])
    rsa.string(key.bytes)
    for field in ["plugboard-plugin", "", "sha512", "sig"] { rsa.string(Array(field.utf8)) }
    #expect(throws: SignatureError.unsupportedKeyType("ssh-rsa")) { try SSHSignature(blob: rsa.bytes) }
  }

  /// The armored blob of a `.sig` file.
  private static func blob(of armored: [UInt8]) -> [UInt8]? {
    let lines = String(decoding: armored, as: UTF8.self).split(separator: "\n").filter {
      !$0.hasPrefix("-----")
    }
    return Base64.decode(Array(lines.joined().utf8))
  }
}
