import Foundation
import PlugboardTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Every symbolic link on a written path is judged, not only the last:
/// whoever can re-point one chooses the file plugboard reads, though every
/// folder of where it leads today is safe. Plugins, drop-in folders and
/// the manifest alike; the operator's manifest is never changed here, only
/// a link in a folder others can write.
@Suite(.blocking) struct LinkChaseTests {
  /// A release layout: `releases/v1` holds the Networking plugin and its
  /// neighbours, and `shared/` (mode 0777 unless told) the links to it.
  private struct Releases {
    let layout: ReleaseLayout
    var folder: TemporaryDirectory { layout.folder }
    var path: String { layout.path }
    var shared: String { layout.shared }
    var plugin: String { layout.release + "/libNetworking.so" }

    init(sharedMode: mode_t = 0o777) throws {
      layout = try ReleaseLayout(
        copying: ["Networking", "AppContracts", "PlugboardKit"].map(BuildProducts.library),
        sharedMode: sharedMode)
    }

    /// Makes the link `name` (relative to the folder) lead to `target`.
    func link(_ name: String, to target: String) throws { layout.link(name, to: target) }

    func manifest(plugin written: String) throws -> String {
      try folder.writeManifest([("Networking", written)])
    }
  }

  private static let writable = "which is writable by group and others (mode 0777, owner uid \(geteuid()))"

  /// `list` of `written`, the plugin's path in the manifest: the first line
  /// on standard error, and the exit status.
  private func list(_ releases: Releases, plugin written: String) throws -> (Int32, String?) {
    let result = try Subprocess.plugboard(["list", "--manifest", try releases.manifest(plugin: written)])
    return (result.status, result.stderrLines.first)
  }

  /// The release layout's `current` re-pointed in `shared/` (a link above
  /// the last component), and a second hop through `shared/`: each the
  /// link others can re-point (`refused`, in `shared/`), with the path
  /// the manifest writes.
  @Test(arguments: [
    (
      links: [("shared/current", "../releases/v1")], written: "shared/current/libNetworking.so",
      refused: "current"
    ),
    (
      links: [("current", "shared/hop"), ("shared/hop", "../releases/v1")],
      written: "current/libNetworking.so",
      refused: "hop"
    ),
  ])
  func aLinkOnTheWayInAFolderOthersCanWriteIsRefused(
    links: [(String, String)], written: String, refused: String
  ) throws {
    let releases = try Releases()
    for (name, target) in links { try releases.link(name, to: target) }
    let (status, line) = try list(releases, plugin: written)
    #expect(status == 1)
    let expected: String =
      "plugboard: vet: plugin 'Networking' (\(releases.plugin)) is reached through the link "
      + "\(releases.shared)/\(refused), which lies in the folder \(releases.shared), \(Self.writable); anyone "
      + "who can write there can replace the link, and so the plugin — chmod go-w \(releases.shared)"
    #expect(line == expected)
  }

  /// A neighbour the loader finds beside the plugin through a link: the
  /// links on the way the loader follows are judged as a written path's
  /// are, since whoever re-points `shared/current` chooses the library,
  /// though the library and every folder it lies in today are safe.
  @Test func aNeighbourReachedThroughALinkOthersCanRepointIsRefused() throws {
    let releases = try Releases()
    let app = releases.path + "/app"
    try FileManager.default.createDirectory(atPath: app, withIntermediateDirectories: false)
    for product in ["Networking", "PlugboardKit"] {
      try FileManager.default.copyItem(
        atPath: BuildProducts.library(product), toPath: app + "/lib\(product).so")
    }
    try releases.link("shared/current", to: "../releases/v1")
    try releases.link("app/libAppContracts.so", to: "../shared/current/libAppContracts.so")
    let (status, line) = try list(releases, plugin: "app/libNetworking.so")
    #expect(status == 1)
    let expected: String =
      "plugboard: vet: plugin 'Networking' (\(app)/libNetworking.so) needs libAppContracts.so, which it loads "
      + "from \(releases.path)/releases/v1/libAppContracts.so, which is reached through the link "
      + "\(releases.shared)/current, which lies in the folder \(releases.shared), \(Self.writable); anyone who "
      + "can write there can replace the link, and so the library — chmod go-w \(releases.shared)"
    #expect(line == expected)
  }

  @Test func linksInFoldersOnlyRootCanWriteAreFollowed() throws {
    let releases = try Releases(sharedMode: 0o755)
    try releases.link("current", to: "shared/hop")
    try releases.link("shared/hop", to: "../releases/v1")
    let (status, line) = try list(releases, plugin: "current/libNetworking.so")
    #expect(status == 0, "\(line ?? "")")
  }

  /// In root's sticky folder: another user's link is refused for its
  /// owner; root's own for the folder, where anyone could make it again
  /// once it is removed.
  @Test(.enabled(if: geteuid() == 0, "needs root, to give the link to another user"))
  func aLinkInAStickyFolderIsRefused() throws {
    let releases = try Releases(sharedMode: 0o1777)
    try releases.link("shared/current", to: "../releases/v1")
    let link = releases.shared + "/current"
    let lead =
      "plugboard: vet: plugin 'Networking' (\(releases.plugin)) is reached through the link \(link), which "
    let (status, line) = try list(releases, plugin: "shared/current/libNetworking.so")
    #expect(status == 1)
    let sticky: String =
      lead
      + "lies in the folder \(releases.shared), which is writable by group and others (mode 1777, owner uid "
      + "0): its sticky bit keeps the link only while it exists; removed, anyone can make it again, leading "
      + "anywhere — chmod go-w \(releases.shared)"
    #expect(line == sticky)
    #expect(lchown(link, 65_534, 65_534) == 0)
    let (theirStatus, theirLine) = try list(releases, plugin: "shared/current/libNetworking.so")
    #expect(theirStatus == 1)
    let owned: String =
      lead
      + "is owned by uid 65534, neither root nor the user running plugboard (uid 0); its owner can point it "
      + "at another file and run code in plugboard — make root or yourself its owner: chown -h root \(link)"
    #expect(theirLine == owned)
  }

  @Test func aDropInFolderNamedThroughALinkOthersCanRepointIsRefused() throws {
    let releases = try Releases()
    try releases.link("shared/dropins", to: "../releases/v1")
    let manifest = try releases.folder.write(
      "plugins.json",
      #"{ "formatVersion": 1, \#(BuildProducts.rootsMember) "pluginFolders": ["shared/dropins"], "plugins": [] }"#
    )
    let result = try Subprocess.plugboard(["list", "--manifest", manifest])
    #expect(result.status == 1)
    #expect(!result.stdout.contains("Networking"))
    let expected: String =
      "plugboard: locate: the drop-in folder pluginFolders[0] \"shared/dropins\" (\(releases.shared)/dropins) is "
      + "reached through the link \(releases.shared)/dropins, which lies in the folder \(releases.shared), "
      + "\(Self.writable); anyone who can write there can replace the link, and so the drop-in folder — chmod "
      + "go-w \(releases.shared)"
    #expect(result.stderrLines.first == expected)
  }

  /// A link to the manifest re-pointed to another manifest root owns (one
  /// without pins) chooses what loads; `pin` would rewrite that one.
  @Test func aManifestReachedThroughALinkOthersCanRepointIsRefused() throws {
    let releases = try Releases()
    let manifest = try releases.manifest(plugin: "releases/v1/libNetworking.so")
    try releases.link("shared/plugins.json", to: manifest)
    let expected: String =
      "plugboard: read manifest: refusing the manifest \(manifest): it is reached through the link "
      + "\(releases.shared)/plugins.json, which lies in the folder \(releases.shared), \(Self.writable); "
      + "anyone who can write there can replace the link, and so the manifest — chmod go-w \(releases.shared)"
    for command in ["list", "pin"] {
      let result = try Subprocess.plugboard([command, "--manifest", releases.shared + "/plugins.json"])
      #expect(result.status == 1, "\(command)")
      #expect(result.stderrLines.first == expected, "\(command)")
    }
  }
}
