import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

#if canImport(Glibc)
  import Glibc
#endif

/// A POSIX ACL that names a user grants what the mode shows only as its
/// group's bit: refusals name that user, not "its group", and `pin`
/// rewrites the manifest with its ACL as it was.
@Suite(.blocking) struct AccessControlListTests {
  /// An access ACL in the kernel's form: the owner, `users` (uid, permission
  /// bits), the group, the mask and others.
  private static func acl(users: [(UInt32, UInt16)], group: UInt16 = 4, mask: UInt16, others: UInt16 = 4)
    -> AccessControlList
  {
    let unset = UInt32.max
    let entries: [(UInt16, UInt16, UInt32)] =
      [(0x01, 6, unset)] + users.map { (0x02, $0.1, $0.0) } + [
        (0x04, group, unset), (0x10, mask, unset), (0x20, others, unset),
      ]
    var bytes: [UInt8] = [2, 0, 0, 0]
    for (tag, permission, id) in entries {
      bytes += [UInt8(tag & 0xFF), UInt8(tag >> 8), UInt8(permission & 0xFF), UInt8(permission >> 8)]
      bytes += (0..<4).map { UInt8((id >> (8 * $0)) & 0xFF) }
    }
    return AccessControlList(bytes: bytes)
  }

  /// Gives the file at `path` `acl`; false where the file system has no ACLs.
  private static func give(_ acl: AccessControlList, to path: String) -> Bool {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    defer { if descriptor >= 0 { close(descriptor) } }
    return descriptor >= 0 && acl.write(to: descriptor)
  }

  /// Whether the temporary folder's file system keeps ACLs.
  private static let supported: Bool = {
    guard let folder = try? TemporaryDirectory(), let file = try? folder.write("probe", "") else {
      return false
    }
    return give(acl(users: [(65_534, 4)], mask: 4), to: file)
  }()

  @Test(.enabled(if: supported, "the temporary folder's file system keeps no ACLs"))
  func aPluginAnACLLetsAnotherUserWriteIsRefusedNamingThatUser() throws {
    let folder = try TemporaryDirectory()
    let plugin = folder.path + "/libHealthy.so"
    try FileManager.default.copyItem(atPath: BuildProducts.library("Healthy"), toPath: plugin)
    #expect(chmod(plugin, 0o644) == 0)
    #expect(Self.give(Self.acl(users: [(65_534, 6)], mask: 6), to: plugin))
    let manifest = try folder.writeManifest([("Healthy", plugin)])
    let refused = try Subprocess.plugboard(["list", "--manifest", manifest])
    #expect(refused.status == 1)
    let expected: String =
      "plugboard: vet: plugin 'Healthy' (\(plugin)) is writable by uid 65534 through its access control list "
      + "(getfacl \(plugin)) (mode 0664, owner uid \(geteuid())); anyone who can write it can run code in "
      + "plugboard — remove the write permission: chmod go-w \(plugin)"
    #expect(refused.stderrLines.first == expected)
    // The fix it gives clears the ACL's mask, and so that user's write.
    #expect(chmod(plugin, 0o644) == 0)
    let listed = try Subprocess.plugboard(["list", "--manifest", manifest])
    #expect(listed.status == 0, "\(listed.stderr)")
  }

  @Test(.enabled(if: supported, "the temporary folder's file system keeps no ACLs"))
  func pinKeepsTheManifestsACL() throws {
    let folder = try TemporaryDirectory()
    let manifest = try folder.writeManifest([("Healthy", BuildProducts.library("Healthy"))])
    let reader = Self.acl(users: [(65_534, 4)], mask: 4, others: 0)
    #expect(Self.give(reader, to: manifest))
    let pinned = try Subprocess.plugboard(["pin", "--manifest", manifest])
    #expect(pinned.status == 0, "\(pinned.stderr)")
    #expect(try String(contentsOfFile: manifest, encoding: .utf8).contains(#""sha256""#))
    #expect(AccessControlList.of(manifest) == reader)
  }

  /// A secret an ACL lets another user read shows as mode 0640: the
  /// warning names that user, not "its group", which cannot read it.
  @Test(.enabled(if: supported, "the temporary folder's file system keeps no ACLs"))
  func aSecretAnACLLetsAnotherUserReadNamesThatUser() throws {
    let folder = try TemporaryDirectory()
    let file = try folder.write("password", "hunter2")
    #expect(chmod(file, 0o600) == 0)
    #expect(Self.give(Self.acl(users: [(65_534, 4)], group: 0, mask: 4, others: 0), to: file))
    let source = "PLUGBOARD_CONFIG_CONFIGURED_PASSWORD_FILE"
    let files = SettingFiles([source: file])
    #expect(files.environment["PLUGBOARD_CONFIG_CONFIGURED_PASSWORD"] == "hunter2")
    #expect(
      files.exposures["PLUGBOARD_CONFIG_CONFIGURED_PASSWORD"]
        == "\(source) gives the file \(file), which uid 65534 through an entry of its access control list "
        + "(getfacl \(file)) can read (mode 0640, owner uid \(geteuid()))")
  }

  @Test func theReadersAreReadThroughTheMask() {
    var status = stat()
    status.st_mode = S_IFREG | 0o640
    let path = "/run/secrets/token"
    let acl = "through an entry of its access control list (getfacl \(path))"
    #expect(
      FileTrust.readers(status, acl: Self.acl(users: [(1001, 4)], group: 0, mask: 4, others: 0), at: path)
        == "uid 1001 \(acl)")
    #expect(
      FileTrust.readers(status, acl: Self.acl(users: [(1001, 4)], group: 4, mask: 4, others: 4), at: path)
        == "uid 1001 \(acl), its group and others")
    #expect(
      FileTrust.readers(status, acl: Self.acl(users: [(1001, 4)], group: 4, mask: 0, others: 0), at: path)
        == nil)
    #expect(FileTrust.readers(status, acl: nil, at: path) == "its group")
  }

  @Test func theWritersAreReadThroughTheMask() {
    #expect(Self.acl(users: [(1001, 6), (1002, 4)], mask: 6).writers == ["uid 1001"])
    #expect(Self.acl(users: [(1001, 6)], mask: 4).writers == [])
    #expect(
      Self.acl(users: [(1001, 6)], group: 6, mask: 6, others: 2).writers == [
        "uid 1001", "its group", "others",
      ])
  }
}
