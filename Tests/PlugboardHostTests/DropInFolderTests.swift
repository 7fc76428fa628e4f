import Foundation
import PlugboardDigest
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// `"pluginFolders"`: the `lib*.so` files of a drop-in folder load after the
/// listed plugins, byte-wise by file name, under the names they report,
/// vetted as listed ones are; a name-only `plugins` entry gives settings.
@Suite(.blocking) struct DropInFolderTests {
  /// A folder holding `plugins.d/` and a manifest naming it, with `entries`
  /// as its `plugins` and `top` as more top-level members.
  private struct Layout {
    let folder: TemporaryDirectory
    let manifest: String
    var dropIn: String { folder.path + "/plugins.d" }

    init(entries: [String] = [], top: String = "") throws {
      folder = try TemporaryDirectory()
      try FileManager.default.createDirectory(
        atPath: folder.path + "/plugins.d", withIntermediateDirectories: false)
      manifest = try folder.write(
        "plugins.json",
        """
        { "formatVersion": 1, \(BuildProducts.rootsMember) \(top)
          "pluginFolders": ["plugins.d"],
          "plugins": [\(entries.joined(separator: ", "))] }
        """)
    }

    /// Copies the built plugin `product` into the drop-in folder as `name`.
    func add(_ product: String, as name: String, mode: Int = 0o755) throws {
      let target = dropIn + "/" + name
      try FileManager.default.copyItem(atPath: BuildProducts.library(product), toPath: target)
      try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: target)
    }

    func plugboard(_ arguments: [String]) throws -> ProcessResult {
      try Subprocess.plugboard(arguments + ["--manifest", manifest])
    }

    /// The first line `run` prints when it refuses the deployment.
    func refusal() throws -> String? {
      let run = try plugboard(["run"])
      #expect(run.status == 78)
      return run.stderrLines.first
    }

    func listedPlugins() throws -> [[String: Any]] {
      let result = try plugboard(["list", "--json"])
      let document = try #require(
        JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
      return try #require(document["plugins"] as? [[String: Any]])
    }
  }

  /// `graph` draws a discovered plugin's registrations in a cluster of
  /// its own, as a listed plugin's.
  @Test func graphClustersADiscoveredPlugin() throws {
    let layout = try Layout()
    try layout.add("Healthy", as: "libWhatever.so")
    let graph = try layout.plugboard(["graph", "--format", "mermaid"])
    #expect(graph.status == 0)
    #expect(
      graph.stdout.split(separator: "\n").first { $0.hasPrefix("  subgraph") }
        == #"  subgraph p0 ["Healthy"]"#)
  }

  /// A discovered plugin is configured by its variables like a listed one,
  /// and check does not call them stray.
  @Test func aDiscoveredPluginsVariablesAreNotStray() throws {
    let layout = try Layout()
    try layout.add("Configured", as: "libConfigured.so")
    try layout.add("Healthy", as: "libHealthy.so")
    let environment = [
      "PLUGBOARD_CONFIG_CONFIGURED_REGION": "eu", "PLUGBOARD_CONFIG_CONFIGURED_PASSWORD": "s3cret",
    ]
    let check = try Subprocess.plugboard(["check", "--manifest", layout.manifest], environment: environment)
    #expect(check.status == 0)
    #expect(check.stdout.hasSuffix("check: 0 errors, 0 warnings; the deployment is healthy\n"))
    #expect(!check.stdout.contains("s3cret"))
  }

  /// `pin` pins a drop-in folder's library with no entry by a name-only
  /// entry named after its file (`libHealthy.so` → `Healthy`), since its
  /// reported name is learnt only by running it; with `requirePins` the
  /// deployment then runs as it is.
  @Test func pinPinsADropInByTheNameItsFileGives() throws {
    let layout = try Layout(top: #""requirePins": true,"#)
    try layout.add("Healthy", as: "libHealthy.so")
    let library = try #require(FilePath.canonical(layout.dropIn + "/libHealthy.so"))
    let digest = try SHA256.hash(file: library).get().hex
    #expect(try layout.refusal()?.contains("has no pin and the manifest sets \"requirePins\": true") == true)
    let pin = try layout.plugboard(["pin"])
    #expect(pin.status == 0, "\(pin.stderr)")
    #expect(pin.stderr == "")
    #expect(
      pin.stdoutLines == [
        "\(digest)  Healthy  \(library)  (discovered; pinned as plugins[0], named after its file)",
        "wrote 1 pins to \(layout.manifest): 1 new, 0 changed, 0 unchanged",
      ])
    let written = try String(contentsOfFile: layout.manifest, encoding: .utf8)
    #expect(written.contains(#""plugins": [{ "name": "Healthy", "sha256": "\#(digest)" }] }"#), "\(written)")
    let run = try layout.plugboard(["run"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == "Healthy is running\n")
    let again = try layout.plugboard(["pin"])
    #expect(again.stdoutLines.last == "the pins in \(layout.manifest) are up to date (1 unchanged)")
  }

  /// A rebuilt drop-in: its entry's pin, stale, is refreshed by `pin`
  /// instead of being pasted by hand.
  @Test func pinRefreshesARebuiltDropInsPin() throws {
    let stale = String(repeating: "0", count: 64)
    let layout = try Layout(
      entries: [#"{ "name": "Healthy", "sha256": "\#(stale)" }"#], top: #""requirePins": true,"#)
    try layout.add("Healthy", as: "libHealthy.so")
    let library = try #require(FilePath.canonical(layout.dropIn + "/libHealthy.so"))
    let digest = try SHA256.hash(file: library).get().hex
    let pin = try layout.plugboard(["pin"])
    #expect(pin.status == 0)
    #expect(pin.stderr == "")
    #expect(
      pin.stdoutLines == [
        "\(digest)  Healthy  \(library)  (discovered; pinned by plugins[0])",
        "wrote 1 pins to \(layout.manifest): 0 new, 1 changed, 0 unchanged",
      ])
    let run = try layout.plugboard(["run"])
    #expect(run.status == 0, "\(run.stderr)")
  }

  /// The name a file gives is a guess: a library that reports another is
  /// refused, naming both, and the entry is corrected by hand once.
  @Test func aDropInPinnedUnderItsFileNameThatReportsAnotherIsRefused() throws {
    let layout = try Layout(entries: [
      #"{ "name": "Stale", "sha256": "\#(String(repeating: "0", count: 64))" }"#
    ])
    try layout.add("Healthy", as: "libWhatever.so")
    let library = try #require(FilePath.canonical(layout.dropIn + "/libWhatever.so"))
    let pin = try layout.plugboard(["pin"])
    #expect(pin.status == 0)
    #expect(
      pin.stderrLines == [
        "plugboard: pin: warning: plugins[0] pins 'Stale' to a digest no library in the drop-in folders has, "
          + "and no library there is named after it: remove the entry, or put its library in a drop-in folder"
      ])
    #expect(
      try layout.refusal()
        == "plugboard: check versions: plugin 'Healthy' (\(library)) has the digest pinned by plugins[1].sha256 "
        + "for plugin 'Whatever', but reports the name 'Healthy' — correct the entry's name")
  }

  @Test func aDiscoveredPluginIsNamedByWhatItReportsAndRuns() throws {
    let layout = try Layout()
    try layout.add("Healthy", as: "libWhatever.so")
    let run = try layout.plugboard(["run"])
    #expect(run.status == 0)
    #expect(run.stdout == "Healthy is running\n")
    let plugins = try layout.listedPlugins()
    #expect(plugins.map { $0["name"] as? String } == ["Healthy"])
    #expect(plugins.map { $0["discoveredIn"] as? String } == ["plugins.d"])
  }

  /// `libZ.so` before `liba.so`: byte-wise, not by locale. Settings by
  /// name make the throwing one optional.
  @Test func discoveryIsByteWiseByFileNameAndSettingsApplyByName() throws {
    let layout = try Layout(entries: [#"{ "name": "Throwing", "optional": true }"#])
    try layout.add("Healthy", as: "liba.so")
    try layout.add("ThrowingPlugin", as: "libZ.so")
    let plugins = try layout.listedPlugins()
    #expect(plugins.map { $0["name"] as? String } == ["Throwing", "Healthy"])
    #expect(plugins.map { $0["status"] as? String } == ["failed", "loaded"])
    #expect(plugins.map { $0["optional"] as? Bool } == [true, nil])
    let run = try layout.plugboard(["run"])
    #expect(run.status == 0)
    #expect(run.stdout == "Healthy is running\n")
  }

  /// A name-only entry carries what a listed entry does but its path:
  /// its `config` is the discovered plugin's, applied and checked.
  @Test func aNameOnlyEntrysConfigIsAppliedToTheDiscoveredPlugin() throws {
    let layout = try Layout(entries: [
      #"{ "name": "Configured", "config": { "region": "us", "password": "p", "retries": 5 } }"#
    ])
    try layout.add("Configured", as: "libConfigured.so")
    let list = try layout.plugboard(["list"])
    #expect(list.status == 0)
    #expect(list.stdout.contains("  retries   Int     5         plugins[0].config.retries\n"))
    #expect(list.stdout.contains("  region    String  \"us\"      plugins[0].config.region\n"))
  }

  @Test func aNameOnlyEntrysMisspeltOrMistypedSettingFailsTheCheck() throws {
    let layout = try Layout(entries: [
      #"{ "name": "Configured", "config": { "region": "us", "password": "p", "retires": 5, "retries": "five" } }"#
    ])
    try layout.add("Configured", as: "libConfigured.so")
    let check = try layout.plugboard(["check"])
    #expect(check.status == 1)
    #expect(
      check.stdout.contains(
        "error: plugin 'Configured' has no setting 'retires' (plugins[0].config.retires)"))
    #expect(
      check.stdout.contains("error: plugin 'Configured' setting 'retries' has a value of the wrong type"))
    #expect(try layout.refusal()?.hasPrefix("plugboard: configure: plugin 'Configured'") == true)
  }

  @Test func aDisabledDiscoveredPluginIsNotAssembled() throws {
    let layout = try Layout(entries: [#"{ "name": "Healthy", "enabled": false }"#])
    try layout.add("Healthy", as: "libHealthy.so")
    let plugins = try layout.listedPlugins()
    #expect(plugins.map { $0["status"] as? String } == ["disabled"])
  }

  @Test func twoPluginsReportingOneNameAreRefusedNamingBothFiles() throws {
    let layout = try Layout()
    try layout.add("Healthy", as: "libOne.so")
    try layout.add("Healthy", as: "libTwo.so")
    let run = try layout.plugboard(["run"])
    #expect(run.status == 78)
    #expect(
      run.stderrLines == [
        "plugboard: check versions: plugin 'Healthy' (\(layout.dropIn)/libTwo.so) reports the name 'Healthy', "
          + "as the plugin of \(layout.dropIn)/libOne.so does; two plugins cannot share a name — remove one of "
          + "the two files",
        "plugboard: the deployment has 1 problem; the application was not run",
      ])
  }

  @Test func aNameOnlyEntryNoLibraryReportsIsAProblem() throws {
    let layout = try Layout(entries: [#"{ "name": "Nobody" }"#])
    try layout.add("Healthy", as: "libHealthy.so")
    #expect(
      try layout.refusal()
        == "plugboard: locate: plugin 'Nobody' is named by plugins[0] without a path, and no library in the "
        + #"drop-in folders ("plugins.d") reports that name — add its library to a folder, or give the entry a "path""#
    )
  }

  /// A drop-in plugin whose folder lacks a library it needs fails once,
  /// at `open`, under its name-only entry; the message's advice, to copy
  /// the library beside it, then works: a library another one of the
  /// folder needs is that one's neighbour, not a plugin.
  @Test func aPluginsNeighbourInTheFolderIsNotAPlugin() throws {
    let layout = try Layout(entries: [#"{ "name": "Keychain" }"#])
    try layout.add("Keychain", as: "libKeychain.so")
    let alone = try layout.plugboard(["run"])
    #expect(alone.status == 78)
    #expect(
      alone.stderrLines == [
        "plugboard: open: plugin 'Keychain' (\(layout.dropIn)/libKeychain.so) could not be loaded: it needs "
          + "libAppContracts.so, which neither its run path (/opt/swift/usr/lib/swift/linux:$ORIGIN, with "
          + "$ORIGIN being \(layout.dropIn)) nor the system's folders provide — copy the libAppContracts.so it "
          + "was built against into \(layout.dropIn), where it is loaded as the neighbour of the plugins that "
          + "need it, not as a plugin (dlerror: libAppContracts.so: cannot open shared object file: No such "
          + "file or directory)",
        "plugboard: the deployment has 1 problem; the application was not run",
      ])
    try layout.add("AppContracts", as: "libAppContracts.so")
    let plugins = try layout.listedPlugins()
    #expect(plugins.map { $0["name"] as? String } == ["Keychain"])
    #expect(plugins.map { $0["status"] as? String } == ["loaded"])
    let check = try layout.plugboard(["check"])
    #expect(!check.stdout.contains("plugboard_entry_v1"))
    #expect(check.stdout.contains("1 plugin (1 loaded)"))
  }

  /// Only `lib*.so` files directly inside: other names, hidden files and
  /// subfolders (even one named like a library) are passed over.
  @Test func otherFilesAndSubfoldersAreIgnored() throws {
    let layout = try Layout()
    try layout.add("Healthy", as: "libHealthy.so")
    try layout.add("ThrowingPlugin", as: "libThrowing.so.1")
    try layout.add("ThrowingPlugin", as: "Throwing.so")
    _ = try layout.folder.write("plugins.d/README.txt", "not a plugin")
    try FileManager.default.createDirectory(
      atPath: layout.dropIn + "/libNested.so", withIntermediateDirectories: false)
    try FileManager.default.copyItem(
      atPath: BuildProducts.library("ThrowingPlugin"), toPath: layout.dropIn + "/libNested.so/libThrowing.so")
    let plugins = try layout.listedPlugins()
    #expect(plugins.map { $0["name"] as? String } == ["Healthy"])
  }

  @Test func aFolderHoldingTooManyEntriesIsRefused() throws {
    let layout = try Layout()
    for index in 0...PluginDiscovery.entryLimit { _ = try layout.folder.write("plugins.d/f\(index)", "") }
    #expect(
      try layout.refusal()
        == #"plugboard: locate: the drop-in folder pluginFolders[0] "plugins.d" (\#(layout.dropIn)) holds more "#
        + "than 1024 entries; plugboard reads at most 1024 — keep only plugin libraries there")
  }

  @Test func aMissingFolderIsAClearProblem() throws {
    let layout = try Layout()
    try FileManager.default.removeItem(atPath: layout.dropIn)
    #expect(
      try layout.refusal()
        == #"plugboard: locate: the drop-in folder pluginFolders[0] "plugins.d" (\#(layout.dropIn)) cannot be "#
        + "read: No such file or directory — create it, or correct pluginFolders[0]")
  }

  /// Adding a file or a link to a drop-in folder adds a plugin, so the
  /// folder must be writable by no one else, root's sticky folders
  /// included (a link put in a 1777 folder would load a mock auth plugin
  /// in the live profile). Nothing in such a folder is loaded.
  @Test(arguments: [0o777, 0o1777, 0o775])
  func aDropInFolderOthersCanWriteIsRefused(mode: Int) throws {
    let layout = try Layout()
    try layout.add("Healthy", as: "libHealthy.so")
    #expect(chmod(layout.dropIn, mode_t(mode)) == 0)
    let writers: String = mode == 0o775 ? "its group" : "group and others"
    let octal: String = String(mode, radix: 8)
    let shown: String = octal.count < 4 ? "0" + octal : octal
    let folder: String = #"the drop-in folder pluginFolders[0] "plugins.d" (\#(layout.dropIn))"#
    let expected: String =
      "plugboard: locate: \(folder) is writable by \(writers) (mode \(shown), owner uid \(geteuid())); anyone "
      + "who can add a file or a link there adds a plugin, sticky bit or not — chmod go-w \(layout.dropIn)"
    #expect(try layout.refusal() == expected)
    let list = try layout.plugboard(["list"])
    #expect(!list.stdout.contains("Healthy"))
  }

  /// A listed plugin reached through a link is as safe as the folder the
  /// link sits in: whoever can write there can point it elsewhere.
  @Test func aLinkInAFolderOthersCanWriteIsRefused() throws {
    let folder = try TemporaryDirectory()
    let links = folder.path + "/links"
    try FileManager.default.createDirectory(atPath: links, withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(
      atPath: links + "/libHealthy.so", withDestinationPath: BuildProducts.library("Healthy"))
    #expect(chmod(links, 0o777) == 0)
    let manifest = try folder.writeManifest([("Healthy", links + "/libHealthy.so")])
    let run = try Subprocess.plugboard(["run", "--manifest", manifest])
    #expect(run.status == 78)
    let plugin: String = BuildProducts.library("Healthy")
    let expected: String =
      "plugboard: vet: plugin 'Healthy' (\(plugin)) is reached through the link \(links)/libHealthy.so, which "
      + "lies in the folder \(links), which is writable by group and others (mode 0777, owner uid \(geteuid())); "
      + "anyone who can write there can replace the link, and so the plugin — chmod go-w \(links)"
    #expect(run.stderrLines.first == expected)
  }

  @Test func aDiscoveredLibraryIsVettedAsAListedOneIs() throws {
    let layout = try Layout()
    try layout.add("Healthy", as: "libHealthy.so", mode: 0o775)
    let file = layout.dropIn + "/libHealthy.so"
    #expect(
      try layout.refusal()
        == "plugboard: vet: plugin 'Healthy' (\(file)) is writable by its group (mode 0775, owner uid "
        + "\(geteuid())); anyone who can write it can run code in plugboard — remove the write permission: "
        + "chmod go-w \(file)")
  }

  /// With `requirePins`, an unpinned library is refused unopened; one whose
  /// digest a name-only entry pins loads under that entry.
  @Test func pinsMatchDiscoveredLibrariesByDigest() throws {
    let digest = try SHA256.hash(file: BuildProducts.library("Healthy")).get().hex
    let unpinned = try Layout(top: #""requirePins": true,"#)
    try unpinned.add("Healthy", as: "libHealthy.so")
    let refused = try unpinned.plugboard(["run"])
    #expect(refused.status == 78)
    #expect(
      refused.stderrLines.first
        == "plugboard: open: plugin 'Healthy' (\(unpinned.dropIn)/libHealthy.so) has no pin and the manifest "
        + #"sets "requirePins": true — run 'plugboard pin' to pin every listed plugin, or add an entry with its "#
        + #"name and "sha256" to plugins (it was not opened)"#)
    let pinned = try Layout(
      entries: [#"{ "name": "Healthy", "sha256": "\#(digest)" }"#], top: #""requirePins": true,"#)
    try pinned.add("Healthy", as: "libHealthy.so")
    let run = try pinned.plugboard(["run"])
    #expect(run.status == 0)
    #expect(run.stdout == "Healthy is running\n")
  }

  /// A library rebuilt after it was pinned matches no pin; the name-only
  /// entry its file name matches is named, with both digests, rather than
  /// "no pin".
  @Test func aStalePinIsToldApartFromNoPin() throws {
    let digest = try SHA256.hash(file: BuildProducts.library("Healthy")).get().hex
    let stale = String(repeating: "0", count: 64)
    let layout = try Layout(
      entries: [#"{ "name": "Healthy", "sha256": "\#(stale)" }"#], top: #""requirePins": true,"#)
    try layout.add("Healthy", as: "libHealthy.so")
    let run = try layout.plugboard(["run"])
    #expect(run.status == 78)
    let expected: String =
      "plugboard: open: plugin 'Healthy' (\(layout.dropIn)/libHealthy.so) does not match the pin "
      + "plugins[0].sha256 of plugin 'Healthy', the entry its file name matches: the pin is \(stale), the "
      + "file's digest \(digest) — if this file is the one to trust, write its digest into plugins[0].sha256 "
      + "(plugboard pin lists it); otherwise replace the file (it was not opened)"
    #expect(run.stderrLines.first == expected)
  }

  @Test func withoutFoldersAnEntryStillNeedsAPath() throws {
    let folder = try TemporaryDirectory()
    let path = try folder.write("plugins.json", #"{ "formatVersion": 1, "plugins": [{ "name": "A" }] }"#)
    guard case .failure(.invalid(_, let problems)) = ManifestReader.read(path: path, origin: .defaultLocation)
    else {
      Issue.record("expected a refusal")
      return
    }
    #expect(problems.map(\.description) == [#"plugins[0]: missing required key "path""#])
  }
}
