import Foundation
import PlugboardDigest
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// Integrity pins through the built `plugboard`: pinned plugins load with
/// their `$ORIGIN` neighbours, a wrong or missing pin is refused, and
/// `plugboard pin` writes the pins without disturbing the manifest.
@Suite(.blocking) struct PinTests {
  private static let auth = BuildProducts.library("Auth")
  private static let networking = BuildProducts.library("Networking")

  private func digest(_ file: String) throws -> String {
    try SHA256.hash(file: file).get().hex
  }

  /// A manifest in a fresh folder; the plugins live in the build folder,
  /// which it lists as a plugin root.
  private func manifest(_ folder: TemporaryDirectory, _ members: String, plugins: [String]) throws -> String {
    try folder.write(
      "plugins.json",
      """
      { "formatVersion": 1, "pluginRoots": ["\(BuildProducts.directory)"],\(members) "plugins": [
        \(plugins.joined(separator: ",\n  "))
      ] }

      """)
  }

  private func entry(_ name: String, _ file: String, pin: String? = nil) -> String {
    #"{ "name": "\#(name)", "path": "\#(file)""# + (pin.map { #", "sha256": "\#($0)""# } ?? "") + " }"
  }

  /// `libAuth.so` needs `libAppContracts.so`, found through its `$ORIGIN`
  /// run path beside it in the build folder and not loaded by the host.
  @Test func aPinnedPluginLoadsWithItsOriginNeighbours() throws {
    let folder = try TemporaryDirectory()
    let path = try manifest(
      folder, "",
      plugins: [
        entry("Networking", Self.networking, pin: try digest(Self.networking).uppercased()),
        entry("Auth", Self.auth, pin: try digest(Self.auth)),
      ])
    let result = try Subprocess.plugboard(["list", "--manifest", path])
    #expect(result.exited && result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("\nAuth 1.0.0  \(Self.auth)\n"))
    #expect(result.stdout.contains("AppContracts.AuthService"))
    #expect(result.stderr.isEmpty)
  }

  /// Findings do not depend on how a plugin is loaded: the sample, whose
  /// Analytics ships its own build of the stamped contracts, is as clean
  /// pinned (each plugin opened from a sealed copy) as unpinned.
  @Test func pinningTheSampleChangesNoFinding() throws {
    let analytics = try ThirdPartyBuild.analytics.get()
    let folder = try TemporaryDirectory()
    let path = try folder.write("plugins.json", SampleManifest.text(analytics: analytics))
    let verdict =
      "check: 2 profiles checked: 'live' healthy (0 errors, 0 warnings), 'mock' healthy (0 errors, 0 warnings); "
      + "the deployment is healthy"
    let before = try Subprocess.plugboard(["check", "--manifest", path])
    #expect(before.stdout.hasSuffix(verdict + "\n"))
    let pin = try Subprocess.plugboard(["pin", "--manifest", path])
    #expect(pin.status == 0)
    #expect(try String(contentsOfFile: path, encoding: .utf8).contains(#""sha256""#))
    let after = try Subprocess.plugboard(["check", "--manifest", path])
    #expect(after.status == 0)
    #expect(after.stdout.hasSuffix(verdict + "\n"), "\(after.stdout)")
  }

  /// Two pinned plugins whose files share a name, in folders of their
  /// own: each is opened through the bring-up's one private folder, and
  /// the loader, which takes a name it has opened before for the library
  /// it opened then, must still be handed the second file.
  @Test func pinnedPluginsOfTheSameFileNameEachLoadTheirOwn() throws {
    let folder = try TemporaryDirectory()
    let files = FileManager.default
    var entries: [String] = []
    for (name, plugin) in [("Keychain", "Keychain"), ("Shell", "Shell")] {
      let place = folder.path + "/" + name
      try files.createDirectory(atPath: place, withIntermediateDirectories: false)
      try files.copyItem(atPath: BuildProducts.library(plugin), toPath: place + "/libTwin.so")
      try files.copyItem(
        atPath: BuildProducts.library("AppContracts"), toPath: place + "/libAppContracts.so")
      entries.append(entry(name, place + "/libTwin.so", pin: try digest(place + "/libTwin.so")))
    }
    let path = try folder.write(
      "plugins.json",
      """
      { "formatVersion": 1, "pluginRoots": ["\(folder.path)"], "plugins": [
        \(entries.joined(separator: ",\n  "))
      ] }

      """)
    let result = try Subprocess.plugboard(["list", "--manifest", path])
    #expect(result.exited && result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("2 plugins: 2 loaded, 0 disabled, 0 failed"), "\(result.stdout)")
    let rows = result.stdout.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
    let keychain = "AppContracts.SecureStore - container (start, stop hooks)"
    #expect(rows.contains(keychain + " Keychain/KeychainAssembly.swift:7"))
    #expect(rows.contains("AppContracts.AppConsole - container Shell/ShellAssembly.swift:13"))
  }

  @Test func aPluginThatDoesNotMatchItsPinIsRefusedShowingBothDigests() throws {
    let folder = try TemporaryDirectory()
    let wrong = try digest(Self.networking)
    let path = try manifest(folder, "", plugins: [entry("Auth", Self.auth, pin: wrong)])
    let result = try Subprocess.plugboard(["list", "--manifest", path])
    #expect(result.exited && result.status == 1)
    #expect(
      result.stderrLines == [
        "plugboard: open: plugin 'Auth' (\(Self.auth)) does not match its pin: plugins[0].sha256 is \(wrong), "
          + "the file's SHA-256 is \(try digest(Self.auth)) — if the new file is trusted, run 'plugboard pin' "
          + "to refresh the pins"
      ])
  }

  @Test func requirePinsRefusesAnUnpinnedPlugin() throws {
    let folder = try TemporaryDirectory()
    let contracts = BuildProducts.library("AppContracts")
    let path = try manifest(
      folder, #" "requirePins": true, "libraryPins": { "\#(contracts)": "\#(try digest(contracts))" },"#,
      plugins: [
        entry("Networking", Self.networking, pin: try digest(Self.networking)), entry("Auth", Self.auth),
      ])
    let result = try Subprocess.plugboard(["list", "--manifest", path])
    #expect(result.exited && result.status == 1)
    #expect(
      result.stderrLines == [
        "plugboard: open: plugin 'Auth' (\(Self.auth)) has no pin and the manifest sets \"requirePins\": "
          + "true — run 'plugboard pin' to pin every plugin, or add plugins[1].sha256"
      ])
    #expect(result.stdout.contains("\nNetworking 1.0.0  \(Self.networking)\n"))
  }

  /// `check` loads a disabled plugin on its own to learn what it
  /// registers; that load is held to the plugin's pin too.
  @Test func checkHoldsAProbedDisabledPluginToItsPin() throws {
    let folder = try TemporaryDirectory()
    let wrong = String(repeating: "0", count: 64)
    let disabled = #"{ "name": "Auth", "path": "\#(Self.auth)", "enabled": false, "sha256": "\#(wrong)" }"#
    let path = try manifest(folder, "", plugins: [entry("Networking", Self.networking), disabled])
    let result = try Subprocess.plugboard(["check", "--manifest", path])
    #expect(result.exited && result.status == 1)
    #expect(
      result.stdout.contains(
        "and that failed: open: plugin 'Auth' (\(Self.auth)) does not match its pin: plugins[1].sha256 is "
          + "\(wrong), the file's SHA-256 is \(try digest(Self.auth)) — if the new file is trusted"))
  }

  /// `pin` vets what it hashes: a pin of a file someone else
  /// can write would vouch for whatever they put there.
  @Test func pinRefusesAFileOthersCanWrite() throws {
    let folder = try TemporaryDirectory()
    let copy = folder.path + "/libNetworking.so"
    try FileManager.default.copyItem(atPath: Self.networking, toPath: copy)
    #expect(chmod(copy, 0o666) == 0)
    let path = try manifest(folder, "", plugins: [entry("Networking", copy)])
    let before = try String(contentsOfFile: path, encoding: .utf8)
    let result = try Subprocess.plugboard(["pin", "--manifest", path])
    #expect(result.status == 1)
    #expect(
      result.stderrLines == [
        "plugboard: pin: plugin 'Networking' (\(copy)) is writable by group and others (mode 0666, owner uid "
          + "\(geteuid())); anyone who can write it can run code in plugboard — remove the write permission: "
          + "chmod go-w \(copy); not pinned",
        "plugboard: pin: no pins written; \(path) is unchanged",
      ])
    #expect(try String(contentsOfFile: path, encoding: .utf8) == before)
  }

  /// The rewritten manifest keeps its group as well as its mode (root
  /// can give it another group; elsewhere the test skips).
  @Test(.enabled(if: geteuid() == 0, "needs root to give the manifest another group"))
  func pinKeepsTheManifestsGroupAndMode() throws {
    let folder = try TemporaryDirectory()
    let path = try manifest(folder, "", plugins: [entry("Networking", Self.networking)])
    #expect(chown(path, 0, 65_534) == 0)
    #expect(chmod(path, 0o640) == 0)
    #expect(try Subprocess.plugboard(["pin", "--manifest", path]).status == 0)
    var status = stat()
    #expect(stat(path, &status) == 0)
    #expect(status.st_gid == 65_534)
    #expect(status.st_mode & 0o7777 == 0o640)
    #expect(try String(contentsOfFile: path, encoding: .utf8).contains(#""sha256""#))
  }

  /// An edit made between pin's read and its write is not lost: the
  /// replacement is refused when the file no longer holds what was read.
  @Test func aReplacementOfAFileChangedSinceItWasReadIsRefused() throws {
    let folder = try TemporaryDirectory()
    let path = try folder.write("plugins.json", "edited by someone else\n")
    let result = AtomicFile.replace(path, with: Array("pinned\n".utf8), original: Array("as read\n".utf8))
    guard case .failure(.changed) = result else {
      Issue.record("replaced a file changed since it was read: \(result)")
      return
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "edited by someone else\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["plugins.json"])
    let replaced = AtomicFile.replace(
      path, with: Array("pinned\n".utf8), original: Array("edited by someone else\n".utf8))
    guard case .success = replaced else {
      Issue.record("not replaced: \(replaced)")
      return
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "pinned\n")
  }

  /// New pins are added after each object's last member, a stale one is
  /// replaced in place, the library both plugins find beside them is
  /// pinned once in `libraryPins`, added before `plugins`, and every other
  /// byte stays as written; the mode is kept and the result loads.
  @Test func pinWritesThePinsAndLeavesTheRestAsWritten() throws {
    let folder = try TemporaryDirectory()
    let stale = String(repeating: "0", count: 64)
    func text(networking: String, auth: String, libraries: String = "") -> String {
      """
      {
        "$schema": "./plugins.schema.json",
        "formatVersion": 1,
        "pluginRoots": ["\(BuildProducts.directory)"],\(libraries)
        "plugins": [
          {
            "path": "\(Self.networking)",
            "name": "Networking"\(networking)
          },
          { "name": "Auth", "sha256": "\(auth)", "path": "\(Self.auth)", "enabled": true }
        ]
      }

      """
    }
    let path = try folder.write("plugins.json", text(networking: "", auth: stale))
    #expect(chmod(path, 0o640) == 0)
    let result = try Subprocess.plugboard(["pin", "--manifest", path])
    let networking = try digest(Self.networking)
    let auth = try digest(Self.auth)
    let contractsFile = try #require(FilePath.canonical(BuildProducts.library("AppContracts")))
    let contracts = try digest(contractsFile)
    #expect(result.exited && result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
        \(networking)  Networking  \(Self.networking)
        \(auth)  Auth  \(Self.auth)
        \(contracts)  -  \(contractsFile)  (library of Networking, Auth)
        wrote 3 pins to \(path): 2 new, 1 changed, 0 unchanged

        """)
    let written = try String(contentsOfFile: path, encoding: .utf8)
    #expect(
      written
        == text(
          networking: ",\n      \"sha256\": \"\(networking)\"", auth: auth,
          libraries: "\n  \"libraryPins\": {\n    \"\(contractsFile)\": \"\(contracts)\"\n  },"))
    #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o640)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["plugins.json"])

    let again = try Subprocess.plugboard(["pin", "--manifest", path])
    #expect(again.stdout.hasSuffix("the pins in \(path) are up to date (3 unchanged)\n"))
    let list = try Subprocess.plugboard(["list", "--manifest", path])
    #expect(list.exited && list.status == 0, "\(list.stderr)")
  }

  @Test func pinLeavesTheManifestUnchangedWhenAPluginIsMissing() throws {
    let folder = try TemporaryDirectory()
    let path = try manifest(folder, "", plugins: [entry("Auth", Self.auth), entry("Gone", "lib/libGone.so")])
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let result = try Subprocess.plugboard(["pin", "--manifest", path])
    #expect(result.exited && result.status == 1)
    #expect(
      result.stderrLines == [
        "plugboard: pin: plugin 'Gone' (\(folder.path)/lib/libGone.so) does not exist (plugins[1].path is "
          + "relative to the manifest's folder, \(folder.path))",
        "plugboard: pin: no pins written; \(path) is unchanged",
      ])
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }
}

/// The pinned-load path has no window between check and load: the private
/// folder that
/// stands in for a pinned plugin's `$ORIGIN` is reached through its
/// descriptor, so renaming it and putting a decoy in its place changes
/// nothing of what is loaded; and a `TMPDIR` others can change is not used.
@Suite(.blocking) struct PrivateOriginTests {
  @Test func aDecoyPutInThePrivateFolderPlaceIsNotLoaded() throws {
    let fixtures = try CFixtures.directory.get()
    let origin = try PrivateOrigin.makeEmpty().get().linking(
      library: "libPinned.so", target: fixtures + "/libOldSwift.so", neighbours: []
    ).get()
    let moved = origin.folder + ".moved"
    #expect(rename(origin.folder, moved) == 0)
    #expect(mkdir(origin.folder, 0o700) == 0)
    #expect(symlink(fixtures + "/libMisnamed.so", origin.folder + "/libPinned.so") == 0)
    defer {
      unlink(origin.folder + "/libPinned.so")
      rmdir(origin.folder)
      #expect(rename(moved, origin.folder) == 0)
      origin.remove()
    }
    let library = try DynamicLibrary.open(origin.libraryPath).get()
    typealias Entry = @convention(c) () -> UnsafeRawPointer?
    let entry = unsafeBitCast(try library.symbol("plugboard_entry_v1").get(), to: Entry.self)
    let descriptor = try PluginDescriptor.read(try #require(entry()), host: .current).get()
    #expect(descriptor.name == "OldSwift")
  }

  @Test func aTemporaryFolderOthersCanWriteIsNotUsed() throws {
    let folder = try TemporaryDirectory()
    #expect(chmod(folder.path, 0o777) == 0)
    defer { chmod(folder.path, 0o700) }
    #expect(PrivateOrigin.temporaryFolderProblem(folder.path) != nil)
    #expect(PrivateOrigin.temporaryFolderProblem("/tmp") == nil)
    #expect(PrivateOrigin.temporaryBases(tmpdir: folder.path) == PrivateOrigin.temporaryBases(tmpdir: nil))
    #expect(chmod(folder.path, 0o700) == 0)
    #expect(PrivateOrigin.temporaryBases(tmpdir: folder.path + "/").first == folder.path)
    #expect(PrivateOrigin.temporaryBases(tmpdir: folder.path + "/").last == "/tmp")
  }

  /// With no `TMPDIR`, private folders are made on the memory file system
  /// (`/dev/shm`) where there is one: each start makes and removes their
  /// links, which on a disk file system allocate and free an inode each.
  @Test(
    .enabled(if: PrivateOrigin.isMemoryFileSystem("/dev/shm"), "/dev/shm is not a memory file system here"))
  func privateFoldersGoToMemoryWhenNoTemporaryFolderIsChosen() throws {
    #expect(PrivateOrigin.temporaryBases(tmpdir: nil) == ["/dev/shm", "/tmp"])
    #expect(PrivateOrigin.temporaryBases(tmpdir: "relative/tmp") == ["/dev/shm", "/tmp"])
    #expect(!PrivateOrigin.isMemoryFileSystem("/proc"))
    let origin = try PrivateOrigin.makeEmpty().get()
    defer { origin.remove() }
    if getenv("TMPDIR") == nil {
      #expect(origin.folder.hasPrefix("/dev/shm/" + PrivateOrigin.prefix), "\(origin.folder)")
    }
  }

  /// A pinned plugin whose constructor crashes dies inside `dlopen`, before
  /// its private folder is removed: the supervising parent removes it.
  /// Each such crash used to leave one behind.
  @Test(arguments: [["list"], ["check"], ["run"]])
  func aCrashInsideDlopenLeavesNoPrivateFolder(command: [String]) throws {
    let folder = try TemporaryDirectory()
    let library = folder.path + "/libCrash.so"
    try FileManager.default.copyItem(atPath: try CFixtures.directory.get() + "/libCrash.so", toPath: library)
    let digest = try SHA256.hash(file: library).get().hex
    let manifest = try folder.write(
      "plugins.json",
      #"{ "formatVersion": 1, \#(BuildProducts.rootsMember) "plugins": [ { "name": "Crash", "path": "libCrash.so", "sha256": "\#(digest)" } ] }"#
    )
    let temporary = try TemporaryDirectory()
    let result = try Subprocess.plugboard(
      command + ["--manifest", manifest], environment: ["TMPDIR": temporary.path])
    #expect((result.stdout + result.stderr).contains("crashed with SIGSEGV"), "\(result.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
  }

  /// The parent removes only what a private folder looks like: the name
  /// comes over a pipe plugin code can write to.
  @Test func onlyAPrivateFolderIsRemovedAsALeftover() throws {
    let base = try #require(PrivateOrigin.temporaryBases.first) + "/" + PrivateOrigin.prefix
    let fixtures = try CFixtures.directory.get()
    let origin = try PrivateOrigin.makeEmpty().get().linking(
      library: "libA.so", target: fixtures + "/libOldSwift.so", neighbours: []
    )
    .get()
    // A file among the links: not a private folder as plugboard makes them.
    let stray = origin.folder + "/notes"
    #expect(FileManager.default.createFile(atPath: stray, contents: Data("x".utf8)))
    PrivateOrigin.removeLeftover(origin.folder)
    #expect(FileManager.default.fileExists(atPath: origin.folder + "/libA.so"))
    #expect(unlink(stray) == 0)
    // Named otherwise, or through `..`: left alone.
    for forged in [origin.folder + "/..", base + "ABC", origin.folder + "x", "/tmp/" + PrivateOrigin.prefix] {
      PrivateOrigin.removeLeftover(forged)
    }
    #expect(FileManager.default.fileExists(atPath: origin.folder + "/libA.so"))
    PrivateOrigin.removeLeftover(origin.folder)
    #expect(!FileManager.default.fileExists(atPath: origin.folder))
  }

  /// `check` says so when plugins are pinned, or signed, and `TMPDIR` is
  /// not safe: both are opened through a private folder.
  @Test(arguments: [false, true])
  func checkWarnsOfATemporaryFolderOthersCanWrite(signed: Bool) throws {
    let folder = try TemporaryDirectory()
    let networking = BuildProducts.library("Networking")
    let digest = try SHA256.hash(file: networking).get().hex
    let signers = try folder.write("allowed_signers", "")
    let trust = #""trust": { "allowedSigners": "\#(signers)" },"#
    let vouch = signed ? "" : #", "sha256": "\#(digest)""#
    let manifest = try folder.write(
      "plugins.json",
      #"{ "formatVersion": 1, \#(BuildProducts.rootsMember) \#(signed ? trust : "") "plugins": [ { "name": "Networking", "path": "\#(networking)"\#(vouch) } ] }"#
    )
    let open = try TemporaryDirectory()
    #expect(chmod(open.path, 0o777) == 0)
    defer { chmod(open.path, 0o700) }
    let result = try Subprocess.plugboard(
      ["check", "--manifest", manifest], environment: ["TMPDIR": open.path])
    #expect(
      result.stdout.contains(
        "warning: TMPDIR is not safe for the private folder of pinned and signed plugins, so plugboard uses "
          + "\(PrivateOrigin.temporaryBases(tmpdir: nil)[0]) instead\n"), "\(result.stdout)")
    #expect(
      result.stdout.contains(
        "  TMPDIR=\(open.path) lies in the folder \(open.path), which is writable by group and others (mode "
          + "0777, owner uid \(geteuid())); anyone who can write there can replace a pinned or signed plugin's "
          + "private folder — chmod go-w \(open.path).\n"))
  }
}
