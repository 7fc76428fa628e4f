import Foundation
import PlugboardSignatures
import Testing

@testable import PlugboardEngine

/// Signatures verified at one start and held to their libraries at the
/// next by the proofs kept in `CACHE_DIRECTORY` (systemd's
/// `CacheDirectory=`), through the built `plugboard`: an unchanged library
/// is not hashed and checked again, while a changed library, a revoked key
/// or a replaced signature is judged in full, and a proofs file others
/// could write is not used.
@Suite(.blocking, .enabled(if: SSHKeygen.shouldRun, SSHKeygen.missing))
struct SignatureProofsTests {
  /// Healthy signed by alice, whom the allowed signers file lets sign it,
  /// and a cache folder of the user's own.
  private struct Deployment {
    let signed: SignedDeployment
    let plugin: String
    var cache: String { signed.folder + "/cache" }
    var proofs: String { cache + "/verified-signatures" }
    var allowedSigners: String { signed.folder + "/allowed_signers" }

    init() throws {
      signed = try SignedDeployment()
      plugin = try signed.add(BuildProducts.library("Healthy"))
      try signed.allow([("Healthy", try signed.makeKey("alice"))])
      try signed.manifest(SignedDeployment.requiring, [SignedDeployment.entry("Healthy", plugin)])
      try signed.sign("plugins/libHealthy.so", with: "alice")
      try FileManager.default.createDirectory(
        atPath: cache, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    }

    /// `plugboard ARGUMENTS` as a unit with `CacheDirectory=` runs it.
    func plugboard(_ arguments: [String]) throws -> ProcessResult {
      try signed.plugboard(arguments, environment: ["CACHE_DIRECTORY": cache])
    }

    /// The lines of `check` that say who signed what.
    func signedLines() throws -> [String] {
      let check = try plugboard(["check"])
      #expect(check.status == 0, "\(check.stderr)")
      return check.stdoutLines.filter { $0.contains("signed by") }
    }

    func signedLine(earlier: Bool) throws -> String {
      let fingerprint = try signed.keys.fingerprint("alice")
      let line = "plugin 'Healthy': libHealthy.so signed by \(fingerprint) (\(allowedSigners):1: Healthy)"
      return line + (earlier ? ", verified at an earlier start" : "")
    }
  }

  @Test func aSecondStartHoldsTheSignatureToTheProofTheFirstKept() throws {
    let deployment = try Deployment()
    #expect(try deployment.signedLines() == [try deployment.signedLine(earlier: false)])
    let kept = try String(contentsOfFile: deployment.proofs, encoding: .utf8).split(separator: "\n")
    #expect(kept.first == "plugboard verified signatures 1")
    #expect(kept.count == 2)
    let attributes = try FileManager.default.attributesOfItem(atPath: deployment.proofs)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    #expect(try deployment.signedLines() == [try deployment.signedLine(earlier: true)])
    let run = try deployment.plugboard(["run"])
    #expect(run.status == 0, "\(run.stderr)")
  }

  @Test func aLibraryChangedAfterItsProofWasKeptIsCheckedInFullAndRefused() throws {
    let deployment = try Deployment()
    _ = try deployment.signedLines()
    let handle = try #require(FileHandle(forWritingAtPath: deployment.plugin))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data([0]))
    try handle.close()
    let run = try deployment.plugboard(["run"])
    #expect(run.status == 78)
    #expect(
      run.stderrLines.first?.hasPrefix(
        "plugboard: vet: plugin 'Healthy' (\(deployment.plugin)) is refused by its signature "
          + "\(deployment.plugin).sig: the signature does not verify: the signature does not match the data and "
          + "the key") == true, "\(run.stderr)")
  }

  @Test func aProofDoesNotOutliveTheRevocationOfItsKey() throws {
    let deployment = try Deployment()
    _ = try deployment.signedLines()
    try deployment.signed.keys.write("revoked_keys", try deployment.signed.keys.bytes("alice.pub"))
    try deployment.signed.manifest(
      #""trust": { "allowedSigners": "allowed_signers", "revokedKeys": "revoked_keys" },"#,
      [SignedDeployment.entry("Healthy", deployment.plugin)])
    let run = try deployment.plugboard(["run"])
    #expect(run.status == 78)
    #expect(
      run.stderrLines.first?.hasPrefix(
        "plugboard: vet: plugin 'Healthy' (\(deployment.plugin)) is refused by its signature "
          + "\(deployment.plugin).sig: the signing key \(try deployment.signed.keys.fingerprint("alice")) is "
          + "revoked by \(deployment.signed.folder)/revoked_keys") == true, "\(run.stderr)")
  }

  @Test func aSignatureReplacedByAKeyNotAllowedIsRefused() throws {
    let deployment = try Deployment()
    _ = try deployment.signedLines()
    try deployment.signed.makeKey("mallory")
    try FileManager.default.removeItem(atPath: deployment.plugin + ".sig")
    try deployment.signed.sign("plugins/libHealthy.so", with: "mallory")
    let run = try deployment.plugboard(["run"])
    #expect(run.status == 78)
    let fingerprint = try deployment.signed.keys.fingerprint("mallory")
    #expect(
      run.stderrLines.first?.hasPrefix(
        "plugboard: vet: plugin 'Healthy' (\(deployment.plugin)) is refused by its signature "
          + "\(deployment.plugin).sig: the signing key \(fingerprint) is not allowed to sign") == true,
      "\(run.stderr)")
  }

  @Test func aProofsFileOthersCanWriteIsNotUsed() throws {
    let deployment = try Deployment()
    _ = try deployment.signedLines()
    #expect(chmod(deployment.proofs, 0o666) == 0)
    let check = try deployment.plugboard(["check"])
    #expect(check.status == 0, "\(check.stderr)")
    #expect(
      check.stdoutLines.filter { $0.contains("signed by") } == [try deployment.signedLine(earlier: false)])
    let warning = try #require(check.stderrLines.first { $0.hasPrefix("plugboard: warning: ") })
    #expect(
      warning.hasPrefix("plugboard: warning: the signature proofs file \(deployment.proofs) is writable by "))
    #expect(warning.hasSuffix("; every signature is verified in full"))
  }

  /// A cache folder reached through another user's link is theirs to
  /// re-point at proofs of their own: not used.
  @Test(.enabled(if: geteuid() == 0, "needs root, to give the link to another user"))
  func aCacheFolderReachedThroughAnotherUsersLinkIsNotUsed() throws {
    let deployment = try Deployment()
    let link = deployment.signed.folder + "/current-cache"
    #expect(symlink(deployment.cache, link) == 0)
    #expect(lchown(link, OtherUser.uid, OtherUser.gid) == 0)
    let check = try deployment.signed.plugboard(["check"], environment: ["CACHE_DIRECTORY": link])
    #expect(check.status == 0, "\(check.stderr)")
    #expect(
      check.stderrLines.first { $0.hasPrefix("plugboard: warning: ") }
        == "plugboard: warning: the signature proofs file \(link)/verified-signatures is reached through the "
        + "link \(link), which is owned by uid 65534, neither root nor the user running plugboard (uid 0); its "
        + "owner can point it at another file and make plugboard load a library without checking its signature "
        + "— make root or yourself its owner: chown -h root \(link); every signature is verified in full")
    #expect(!FileManager.default.fileExists(atPath: deployment.proofs))
  }

  /// A proof covers the library as its status read before the copy: a
  /// write while the copy is made (here, a byte appended between the two)
  /// leaves a copy the proof says nothing of, which is checked in full,
  /// and refused.
  @Test func aLibraryWrittenWhileItsCopyIsMadeIsCheckedInFull() throws {
    let deployment = try Deployment()
    let (proofs, warning) = SignatureProofs.kept(in: deployment.proofs)
    #expect(warning == nil)
    let source = open(deployment.plugin, O_RDONLY | O_CLOEXEC)
    try #require(source >= 0)
    defer { close(source) }
    let signatureFile = deployment.plugin + ".sig"
    let signature = try #require(try LibrarySignatureCheck.read(signatureFile).get())
    let stamp = try #require(SignatureProofs.Stamp.of(source))
    let proof = SignatureProofs.Proof(file: stamp, signature: signature)
    proofs.record(proof, readSince: stamp.changed + 1)
    #expect(proofs.holds(proof))
    let signers = try AllowedSigners(
      bytes: Array(try Data(contentsOf: URL(fileURLWithPath: deployment.allowedSigners))),
      file: deployment.allowedSigners)
    let keys = LibrarySignatureCheck.Keys(signers: signers, revoked: nil, file: deployment.allowedSigners)
    func seal(writing: Bool) -> Result<
      (copy: SealedCopy, signature: LibrarySignature?), SignatureRefusal.Reason
    > {
      #expect(lseek(source, 0, SEEK_SET) == 0)
      return LibrarySignatureCheck.seal(
        deployment.plugin, from: source, of: "Healthy", principal: "Healthy", keys: keys, require: true,
        at: time(nil), proofs: proofs,
        beforeCopy: {
          guard writing, let handle = FileHandle(forWritingAtPath: deployment.plugin) else { return }
          _ = try? handle.seekToEnd()
          try? handle.write(contentsOf: Data([0]))
          try? handle.close()
        })
    }
    let held = try seal(writing: false).get()
    #expect(held.signature?.verifiedEarlier == true)
    held.copy.close()
    switch seal(writing: true) {
    case .success(let sealed):
      sealed.copy.close()
      Issue.record("a copy of bytes written after the proof's status was held to that proof")
    case .failure(let reason):
      guard case .rejected(let file, let error, _) = reason else {
        Issue.record("refused for another reason: \(reason)")
        return
      }
      #expect(file == signatureFile)
      #expect(error == .invalid(.mismatch))
    }
  }

  /// A file changed in the clock tick its verification began in could
  /// share every field of its status with the next version of it: its
  /// proof is not kept.
  @Test func aProofOfAFileChangedInTheTickItWasReadIsNotKept() throws {
    let deployment = try Deployment()
    let (proofs, warning) = SignatureProofs.kept(in: deployment.proofs)
    #expect(warning == nil)
    let descriptor = open(deployment.plugin, O_RDONLY | O_CLOEXEC)
    defer { close(descriptor) }
    let stamp = try #require(SignatureProofs.Stamp.of(descriptor))
    let proof = SignatureProofs.Proof(file: stamp, signature: Array("signature".utf8))
    proofs.record(proof, readSince: stamp.changed)
    #expect(!proofs.holds(proof))
    proofs.record(proof, readSince: stamp.changed + 1)
    #expect(proofs.holds(proof))
    #expect(proofs.save() == nil)
    #expect(SignatureProofs.kept(in: deployment.proofs).0.holds(proof))
  }
}

/// The proofs file read as the hostile input it may be: only lines of its
/// exact form count, its size is bounded, and what is saved keeps the
/// newest proofs up to the capacity.
@Suite struct SignatureProofsFileTests {
  private func stamp(_ inode: UInt64) -> SignatureProofs.Stamp {
    SignatureProofs.Stamp(device: 1, inode: inode, size: 100, modified: 5, changed: 5)
  }

  private func proof(_ inode: UInt64) -> SignatureProofs.Proof {
    SignatureProofs.Proof(file: stamp(inode), signature: Array("signature \(inode)".utf8))
  }

  /// A proofs file in a fresh folder of the user's own, holding `text`.
  private func file(_ text: String) throws -> (TemporaryDirectory, String) {
    let folder = try TemporaryDirectory()
    #expect(chmod(folder.path, 0o700) == 0)
    let path = folder.path + "/" + SignatureProofs.fileName
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    try #require(descriptor >= 0)
    let bytes = Array(text.utf8)
    #expect(bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count)
    close(descriptor)
    return (folder, path)
  }

  @Test func onlyLinesOfItsExactFormCount() throws {
    let (folder, path) = try file("")
    let (proofs, _) = SignatureProofs.kept(in: path)
    proofs.record(proof(7), readSince: 6)
    #expect(proofs.save() == nil)
    let line = try #require(
      try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").last.map(String.init))
    let garbage = [
      "", "1 7 100 5 5", line + " extra", line.replacingOccurrences(of: " 7 ", with: " -7 "),
      String(line.dropLast()) + "G", String(line.dropLast()) + "A", line.uppercased(), "\u{1b}[2J " + line,
    ]
    // Each folder is kept until the end: it is removed when released.
    let garbled = try file(SignatureProofs.header + "\n" + garbage.joined(separator: "\n") + "\n")
    #expect(!SignatureProofs.kept(in: garbled.1).0.holds(proof(7)))
    let good = try file(SignatureProofs.header + "\n" + line + "\n")
    #expect(SignatureProofs.kept(in: good.1).0.holds(proof(7)))
    let otherFormat = try file("plugboard verified signatures 2\n" + line + "\n")
    #expect(!SignatureProofs.kept(in: otherFormat.1).0.holds(proof(7)))
    withExtendedLifetime((folder, garbled.0, good.0, otherFormat.0)) {}
  }

  @Test func aFileLargerThanItsBoundIsNotRead() throws {
    let line = String(repeating: "x", count: 159) + "\n"
    let (folder, path) = try file(
      SignatureProofs.header + "\n" + String(repeating: line, count: SignatureProofs.capacity + 2))
    let (proofs, warning) = SignatureProofs.kept(in: path)
    #expect(warning?.hasPrefix("the signature proofs file \(path) is larger than ") == true)
    #expect(warning?.hasSuffix(" bytes — remove it; every signature is verified in full") == true)
    proofs.record(proof(1), readSince: 6)
    #expect(!proofs.holds(proof(1)))
    withExtendedLifetime(folder) {}
  }

  @Test func whatIsSavedKeepsTheNewestUpToTheCapacity() throws {
    let (folder, path) = try file("")
    let (proofs, _) = SignatureProofs.kept(in: path)
    for inode in 1...UInt64(SignatureProofs.capacity + 3) { proofs.record(proof(inode), readSince: 6) }
    #expect(proofs.save() == nil)
    let (read, warning) = SignatureProofs.kept(in: path)
    #expect(warning == nil)
    #expect(!read.holds(proof(3)))
    #expect(read.holds(proof(4)))
    #expect(read.holds(proof(UInt64(SignatureProofs.capacity + 3))))
    withExtendedLifetime(folder) {}
  }
}
