import Foundation
import Testing

@testable import PlugboardSignatures

/// Keys and signatures made by OpenSSH's `ssh-keygen`, as a publisher makes
/// them: `ssh-keygen -Y sign -n plugboard-plugin -f key file` writes
/// `file.sig`. Tests using it are skipped without `ssh-keygen` unless
/// `PLUGBOARD_REQUIRE_TOOLS` names it.
struct SSHKeygen {
  static let shouldRun = ExternalTool.shouldRun("ssh-keygen")
  static let missing: Comment =
    "needs ssh-keygen (openssh-client), which is not on PATH (PLUGBOARD_REQUIRE_TOOLS=ssh-keygen makes it required)"

  let folder: TemporaryDirectory
  let executable: String

  init() throws {
    executable = try #require(
      Toolchain.find("ssh-keygen"), "PLUGBOARD_REQUIRE_TOOLS names ssh-keygen, but ssh-keygen is not on PATH")
    folder = try TemporaryDirectory()
  }

  private func run(_ arguments: [String]) throws -> ProcessResult {
    let result = try Subprocess.run(executable, arguments, in: folder.path)
    #expect(result.status == 0, "ssh-keygen \(arguments): \(result.stderr)")
    return result
  }

  /// A new Ed25519 key pair `name` and `name.pub` in the folder; returns the
  /// public key.
  func makeKey(_ name: String, comment: String = "release key") throws -> SSHPublicKey {
    _ = try run(["-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", folder.path + "/" + name])
    let line = try String(contentsOfFile: folder.path + "/" + name + ".pub", encoding: .utf8)
    let encoded = line.split(separator: " ")[1]
    return try SSHPublicKey(blob: try #require(Base64.decode(Array(encoded.utf8))))
  }

  /// The fingerprint `ssh-keygen -l` prints for the key `name`.
  func fingerprint(_ name: String) throws -> String {
    let output = try run(["-l", "-f", folder.path + "/" + name + ".pub"]).stdout
    return String(output.split(separator: " ")[1])
  }

  /// Signs `file` (in the folder) with the key `name`; returns the `.sig`'s
  /// bytes.
  func sign(
    _ file: String, with name: String, namespace: String = SSHSignature.pluginNamespace,
    hash: String? = nil
  ) throws -> [UInt8] {
    let path = folder.path + "/" + file
    try? FileManager.default.removeItem(atPath: path + ".sig")
    var arguments = ["-Y", "sign", "-n", namespace, "-f", folder.path + "/" + name]
    if let hash { arguments += ["-O", "hashalg=" + hash] }
    _ = try run(arguments + [path])
    return try bytes(file + ".sig")
  }

  /// `ssh-keygen -Y verify`'s verdict on the same inputs, for agreement.
  func opensshVerifies(
    _ file: String, signers: String, principal: String, namespace: String = SSHSignature.pluginNamespace
  ) throws -> Bool {
    let result = try Subprocess.run(
      "/bin/sh",
      [
        "-c",
        "exec \"$0\" -Y verify -f \"$1\" -I \"$2\" -n \"$3\" -s \"$4.sig\" < \"$4\"", executable,
        folder.path + "/" + signers, principal, namespace, folder.path + "/" + file,
      ])
    return result.status == 0
  }

  @discardableResult
  func write(_ name: String, _ bytes: [UInt8]) throws -> String {
    let path = folder.path + "/" + name
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  func bytes(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: folder.path + "/" + name)))
  }
}
