import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

#if canImport(Glibc)
  import Glibc
#endif

/// Where the manifest is and what kind of file it is: links resolved as the
/// kernel resolves them, files that are not regular named for what they
/// are, and no relative path taken from `/`.
@Suite(.blocking) struct ManifestFileTests {
  private static let manifestText =
    #"{ "formatVersion": 1, "plugins": [ { "name": "A", "path": "lib/a.so" } ] }"#

  private func reason(_ path: String) -> String {
    switch ManifestReader.read(path: path, origin: .option(path)) {
    case .success: "read"
    case .failure(let error): error.lines.joined(separator: "\n")
    }
  }

  /// `--manifest DIR` reads `DIR/plugins.json`, as running in DIR would,
  /// for every command; without one there, the message names that file.
  @Test(arguments: [["list", "--json"], ["check", "--json"], ["pin"]])
  func aFolderMeansItsPluginsJSON(command: [String]) throws {
    let folder = try TemporaryDirectory()
    let manifest = try folder.write("plugins.json", #"{ "formatVersion": 1, "plugins": [] }"#)
    let result = try Subprocess.plugboard(command + ["--manifest", folder.path])
    #expect(!result.stderr.contains("directory"), "\(result.stderr)")
    if command[0] == "pin" {
      #expect(result.status == 0, "\(result.stderr)")
    } else {
      #expect(try JSONParser.parse(result.stdout)["manifest"] == .string(manifest))
    }
    try FileManager.default.removeItem(atPath: manifest)
    let missing = try Subprocess.plugboard(command + ["--manifest", folder.path])
    #expect(missing.status == 1)
    #expect(
      missing.stderrLines.contains(
        "plugboard: read manifest: no manifest at \(manifest) (from --manifest \(folder.path))"),
      "\(missing.stderr)")
  }

  @Test func aFIFOIsNamedWithoutBlockingOnIt() throws {
    let folder = try TemporaryDirectory()
    let fifo = folder.path + "/plugins.json"
    #expect(mkfifo(fifo, 0o600) == 0)
    #expect(
      reason(fifo)
        == "cannot read the manifest \(fifo): it is a FIFO (named pipe), which could block plugboard until "
        + "something writes to it; expected a regular JSON file")
  }

  @Test func aDeviceIsNamedWithoutReadingIt() {
    #expect(
      reason("/dev/zero")
        == "cannot read the manifest /dev/zero: it is a character device; expected a regular JSON file"
    )
  }

  @Test func aLinkLoopAndADanglingLinkAreNamed() throws {
    let folder = try TemporaryDirectory()
    let loop = folder.path + "/loop.json"
    try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: "loop.json")
    #expect(
      reason(loop) == "cannot read the manifest \(loop): its symbolic links form a loop (or nest too deeply)")
    let dangling = folder.path + "/dangling.json"
    try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "gone.json")
    #expect(
      reason(dangling)
        == "cannot read the manifest \(dangling): it is a symbolic link to a file that does not exist")
    #expect(
      reason(folder.path + "/none.json")
        == "no manifest at \(folder.path)/none.json (from --manifest \(folder.path)/none.json)")
  }

  /// `/etc/app/plugins.json → /opt/app/current/plugins.json`: the plugins
  /// are beside the real file, which is also the plugin root.
  @Test func aLinkedManifestResolvesPluginsAgainstTheRealFolder() throws {
    let folder = try TemporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: folder.path + "/opt/current", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: folder.path + "/etc", withIntermediateDirectories: true)
    let real = try folder.write("opt/current/plugins.json", Self.manifestText)
    let link = folder.path + "/etc/plugins.json"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
    let manifest = try ManifestReader.read(path: link, origin: .defaultLocation).get()
    #expect(manifest.path == real)
    #expect(manifest.absolutePath(of: manifest.plugins[0]) == folder.path + "/opt/current/lib/a.so")
    #expect(PluginVetting(manifest: manifest).roots == [folder.path + "/opt/current"])
  }

  /// `link/../a.so`, where `link` leads to `a/b`, is `a/a.so`, as `open`
  /// would find it; a lexical `..` would have made it `a.so` beside `link`.
  @Test func dotDotIsResolvedByTheFileSystem() throws {
    let folder = try TemporaryDirectory()
    try FileManager.default.createDirectory(atPath: folder.path + "/a/b", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: folder.path + "/link", withDestinationPath: "a/b")
    try folder.write("a/a.so", "")
    try folder.write("a.so", "")
    let manifest = Manifest(
      path: folder.path + "/plugins.json", plugins: [PluginEntry(index: 0, name: "A", path: "link/../a.so")])
    let absolute = manifest.absolutePath(of: manifest.plugins[0])
    #expect(absolute == folder.path + "/link/../a.so")
    #expect(FilePath.canonical(absolute) == folder.path + "/a/a.so")
  }

  /// From a deleted working directory, `plugins.json` is nowhere: refused,
  /// not looked for as `/plugins.json`.
  @Test(
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: "/bin/sh"),
      "needs /bin/sh to run plugboard from a deleted directory"))
  func aRelativePathWithoutAWorkingDirectoryIsRefused() throws {
    let folder = try TemporaryDirectory()
    let gone = folder.path + "/gone"
    let result = try Subprocess.run(
      "/bin/sh",
      ["-c", #"mkdir "$1" && cd "$1" && rmdir "$1" && exec "$2" list"#, "sh", gone, BuildProducts.plugboard])
    #expect(result.exited)
    #expect(result.status == 1)
    #expect(
      result.stderrLines == [
        "plugboard: read manifest: cannot read the manifest plugins.json: the current directory cannot be "
          + "determined (it may have been deleted), so a relative path means nothing; pass --manifest with an "
          + "absolute path"
      ])
  }
}

/// The manifest chooses which code runs and with which settings, so it is
/// vetted as a plugin's file is: a manifest, or a folder above
/// it, that someone other than root and the user running plugboard can
/// change is refused, naming the file, its mode and owner, and the fix.
/// A second local user is simulated by `chown` to `nobody`, which needs
/// root (CI runs as root); elsewhere those tests skip, and the mode half
/// still runs.
@Suite(.blocking) struct ManifestVettingTests {
  private static let nobody: uid_t = 65_534

  private func manifest(in folder: TemporaryDirectory, mode: mode_t) throws -> String {
    let path = try folder.writeManifest([("Networking", BuildProducts.library("Networking"))])
    #expect(chmod(path, mode) == 0)
    return path
  }

  @Test(arguments: ["run", "check", "list"])
  func aManifestOthersCanWriteIsRefusedByEveryCommand(command: String) throws {
    let folder = try TemporaryDirectory()
    let path = try manifest(in: folder, mode: 0o666)
    let result = try Subprocess.plugboard([command, "--manifest", path])
    #expect(result.exited)
    #expect(result.status == (command == "run" ? 78 : 1))
    #expect(
      result.stderrLines == [
        "plugboard: read manifest: refusing the manifest \(path): it is writable by group and others (mode "
          + "0666, owner uid \(geteuid())); anyone who can write it can choose which plugins plugboard loads "
          + "and with which settings — remove the write permission: chmod go-w \(path)"
      ] + (command == "run" ? ["plugboard: the deployment has 1 problem; the application was not run"] : []))
  }

  @Test func aManifestInAFolderOthersCanWriteIsRefused() throws {
    let folder = try TemporaryDirectory()
    let path = try manifest(in: folder, mode: 0o644)
    #expect(chmod(folder.path, 0o777) == 0)
    defer { chmod(folder.path, 0o700) }
    let result = try Subprocess.plugboard(["check", "--manifest", path])
    #expect(result.status == 1)
    #expect(
      result.stderrLines == [
        "plugboard: read manifest: refusing the manifest \(path): it lies in the folder \(folder.path), which "
          + "is writable by group and others (mode 0777, owner uid \(geteuid())); anyone who can write there "
          + "can replace the manifest — chmod go-w \(folder.path)"
      ])
  }

  /// Root's sticky folders (`/tmp`) stay allowed: others can add files
  /// there, not replace the operator's.
  @Test func aManifestInASharedStickyFolderOfRootsIsRead() throws {
    let folder = try TemporaryDirectory()
    let path = try manifest(in: folder, mode: 0o644)
    #expect(chmod(folder.path, 0o1777) == 0)
    defer { chmod(folder.path, 0o700) }
    let status = FileTrust.status(folder.path)
    let result = try Subprocess.plugboard(["list", "--manifest", path])
    #expect(result.status == (status?.st_uid == 0 ? 0 : 1), "\(result.stderr)")
  }

  @Test(.enabled(if: geteuid() == 0, "needs root to give the manifest to another user (nobody)"))
  func aManifestOwnedByAnotherUserIsRefused() throws {
    let folder = try TemporaryDirectory()
    let path = try manifest(in: folder, mode: 0o644)
    #expect(chown(path, Self.nobody, gid_t(Self.nobody)) == 0)
    let result = try Subprocess.plugboard(["run", "--manifest", path])
    #expect(result.status == 78)
    #expect(
      result.stderrLines == [
        "plugboard: read manifest: refusing the manifest \(path): it is owned by uid \(Self.nobody), neither "
          + "root nor the user running plugboard (uid 0); its owner can choose which plugins plugboard loads "
          + "and with which settings — make root or yourself its owner",
        "plugboard: the deployment has 1 problem; the application was not run",
      ])
  }
}
