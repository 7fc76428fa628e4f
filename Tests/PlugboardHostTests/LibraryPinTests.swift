import Foundation
import PlugboardDigest
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// Pinning the closure: a pinned plugin's neighbours (the
/// libraries it finds beside it through its `$ORIGIN` run path, such as
/// `libAppContracts.so`) are held to their `libraryPins` and loaded from
/// sealed copies, `requirePins` refuses one without a pin, and `plugboard
/// pin` writes them, one per library whatever the number of plugins that
/// need it.
@Suite(.blocking) struct LibraryPinTests {
  /// A deployment of copies of the built `plugins` and of the contracts
  /// they need, side by side in a fresh folder, with a manifest listing
  /// them by relative path.
  private struct Deployment {
    let folder: TemporaryDirectory
    let contracts: String

    init(_ plugins: [String]) throws {
      folder = try TemporaryDirectory()
      contracts = folder.path + "/libAppContracts.so"
      for name in plugins + ["AppContracts"] {
        try FileManager.default.copyItem(
          atPath: BuildProducts.library(name), toPath: folder.path + "/lib\(name).so")
      }
    }

    func library(_ name: String) -> String { folder.path + "/lib\(name).so" }

    /// A drop-in folder `dropins` holding copies of the built `libraries`.
    func dropIns(_ libraries: [String]) throws -> String {
      let dropIns = folder.path + "/dropins"
      try FileManager.default.createDirectory(atPath: dropIns, withIntermediateDirectories: false)
      for name in libraries {
        try FileManager.default.copyItem(
          atPath: BuildProducts.library(name), toPath: dropIns + "/lib\(name).so")
      }
      return dropIns
    }

    /// Writes the manifest: `members` (each followed by a comma), then the
    /// plugins, each pinned to its file's digest when `pinned`.
    @discardableResult
    func manifest(_ plugins: [String], pinned: Bool, members: String = "") throws -> String {
      let entries = try plugins.map { name in
        let pin = pinned ? #", "sha256": "\#(try digest(library(name)))""# : ""
        return #"    { "name": "\#(name)", "path": "lib\#(name).so"\#(pin) }"#
      }
      return try folder.write(
        "plugins.json",
        "{\n  \"formatVersion\": 1,\(members)\n  \"plugins\": [\n\(entries.joined(separator: ",\n"))\n  ]\n}\n"
      )
    }

    func run(_ command: String) throws -> ProcessResult {
      try Subprocess.plugboard([command, "--manifest", folder.path + "/plugins.json"])
    }
  }

  private static func digest(_ file: String) throws -> String {
    try SHA256.hash(file: file).get().hex
  }

  private func digest(_ file: String) throws -> String {
    try Self.digest(file)
  }

  /// `list` refuses with `refusal` as its only line on standard error;
  /// `check` says it in its report.
  private func expect(
    _ result: ProcessResult, of command: String, toReport refusal: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(
      result.exited && result.status == 1, "\(result.stdout)\(result.stderr)", sourceLocation: sourceLocation)
    if command == "list" {
      #expect(result.stderrLines == ["plugboard: " + refusal], sourceLocation: sourceLocation)
    } else {
      #expect(result.stdout.contains(refusal), "\(result.stdout)", sourceLocation: sourceLocation)
    }
  }

  /// The attack library pins stop: the neighbour is replaced after it was pinned (by
  /// whoever could write it). Its replacement, a library whose constructor
  /// crashes, is refused before it is mapped: nothing of it runs.
  @Test(arguments: ["list", "check"])
  func aNeighbourChangedAfterPinningIsRefusedBeforeItRuns(command: String) throws {
    let deployment = try Deployment(["Auth"])
    let pinned = try digest(deployment.contracts)
    try deployment.manifest(
      ["Auth"], pinned: true,
      members: #" "requirePins": true, "libraryPins": { "libAppContracts.so": "\#(pinned)" },"#)
    let before = try deployment.run("list")
    #expect(before.exited && before.status == 0, "\(before.stderr)")
    #expect(before.stdout.contains("\nAuth 1.0.0  \(deployment.library("Auth"))\n"))

    let crash = try Data(contentsOf: URL(fileURLWithPath: try CFixtures.directory.get() + "/libCrash.so"))
    let handle = try #require(FileHandle(forWritingAtPath: deployment.contracts))
    try handle.truncate(atOffset: 0)
    try handle.write(contentsOf: crash)
    try handle.close()
    let found = try digest(deployment.contracts)
    let result = try deployment.run(command)
    #expect(!(result.stdout + result.stderr).contains("SIGSEGV"))
    let refusal =
      "open: plugin 'Auth' (\(deployment.library("Auth"))) needs libAppContracts.so, which it loads from "
      + "\(deployment.contracts), which does not match its pin: libraryPins[\"libAppContracts.so\"] is \(pinned), "
      + "the file's SHA-256 is \(found) — if the new file is trusted, run 'plugboard pin' to refresh the pins"
    expect(result, of: command, toReport: refusal)
  }

  /// `requirePins`: nothing unpinned is mapped, a pinned plugin's
  /// neighbour included.
  @Test(arguments: ["list", "check"])
  func requirePinsRefusesAnUnpinnedNeighbour(command: String) throws {
    let deployment = try Deployment(["Auth"])
    try deployment.manifest(["Auth"], pinned: true, members: #" "requirePins": true,"#)
    let result = try deployment.run(command)
    let refusal =
      "open: plugin 'Auth' (\(deployment.library("Auth"))) needs libAppContracts.so, which it loads from "
      + "\(deployment.contracts), which has no pin and the manifest sets \"requirePins\": true — run "
      + "'plugboard pin' to pin it, or add its SHA-256 to libraryPins"
    expect(result, of: command, toReport: refusal)
  }

  /// Without `requirePins`, a pinned plugin's unpinned neighbour still
  /// loads (from a sealed copy of what is there), as before.
  @Test func withoutRequirePinsAnUnpinnedNeighbourLoads() throws {
    let deployment = try Deployment(["Auth"])
    try deployment.manifest(["Auth"], pinned: true)
    let result = try deployment.run("list")
    #expect(result.exited && result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("\nAuth 1.0.0  \(deployment.library("Auth"))\n"))
  }

  /// `pin` pins the plugins and, once, the library both need; the pinned
  /// deployment then loads with `requirePins`.
  @Test func pinWritesOnePinForANeighbourPluginsShare() throws {
    let deployment = try Deployment(["Networking", "Auth"])
    let path = try deployment.manifest(
      ["Networking", "Auth"], pinned: false, members: #" "requirePins": true,"#)
    let (networking, auth, contracts) = (
      try digest(deployment.library("Networking")), try digest(deployment.library("Auth")),
      try digest(deployment.contracts)
    )
    let pin = try deployment.run("pin")
    #expect(pin.exited && pin.status == 0, "\(pin.stderr)")
    #expect(
      pin.stdout == """
        \(networking)  Networking  \(deployment.library("Networking"))
        \(auth)  Auth  \(deployment.library("Auth"))
        \(contracts)  -  \(deployment.contracts)  (library of Networking, Auth)
        wrote 3 pins to \(path): 3 new, 0 changed, 0 unchanged

        """)
    #expect(
      try String(contentsOfFile: path, encoding: .utf8) == """
        {
          "formatVersion": 1, "requirePins": true,
          "libraryPins": {
            "libAppContracts.so": "\(contracts)"
          },
          "plugins": [
            { "name": "Networking", "path": "libNetworking.so", "sha256": "\(networking)" },
            { "name": "Auth", "path": "libAuth.so", "sha256": "\(auth)" }
          ]
        }

        """)
    let again = try deployment.run("pin")
    #expect(again.stdout.hasSuffix("the pins in \(path) are up to date (3 unchanged)\n"), "\(again.stdout)")
    let list = try deployment.run("list")
    #expect(list.exited && list.status == 0, "\(list.stderr)")
    #expect(list.stdout.contains("\nNetworking 1.0.0  \(deployment.library("Networking"))\n"))
    #expect(list.stdout.contains("\nAuth 1.0.0  \(deployment.library("Auth"))\n"))
  }

  /// A copy of a library a drop-in plugin ships beside it never runs when
  /// a plugin loaded before it (in every profile) maps a library of that
  /// name: the loader maps a name once. The plugin still needs that copy
  /// (loaded alone, or before the other, it would not load), so one rule
  /// holds for `pin` and `run`: a copy with the same bytes as the file that
  /// runs is what should be there, and `pin` says nothing of it; `pin`
  /// pins the file that runs, and the pinned deployment loads with
  /// `requirePins`. Without the copy, `run` refuses the plugin and says to
  /// copy it back.
  @Test func pinPinsTheCopyThatRunsAndKeepsAnIdenticalCopyThePluginNeeds() throws {
    let deployment = try Deployment(["Networking"])
    let dropIns = try deployment.dropIns(["Auth", "AppContracts"])
    let path = try deployment.manifest(
      ["Networking"], pinned: false, members: #" "requirePins": true, "pluginFolders": ["dropins"],"#)
    let pin = try deployment.run("pin")
    #expect(pin.exited && pin.status == 0, "\(pin.stderr)")
    let copy = dropIns + "/libAppContracts.so"
    #expect(!pin.stdout.contains(copy), "\(pin.stdout)")
    #expect(pin.stderr == "", "\(pin.stderr)")
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.contains(#""libAppContracts.so": "\#(try digest(deployment.contracts))""#), "\(text)")
    #expect(!text.contains("dropins/libAppContracts.so"), "\(text)")
    let list = try deployment.run("list")
    #expect(list.exited && list.status == 0, "\(list.stderr)")
    #expect(list.stdout.contains("\nAuth 1.0.0  \(dropIns)/libAuth.so"), "\(list.stdout)")

    try FileManager.default.removeItem(atPath: copy)
    let run = try deployment.run("run")
    #expect(run.status == ExitStatus.runBroken.rawValue, "\(run.stderr)")
    #expect(
      run.stderr.contains("copy the libAppContracts.so it was built against into \(dropIns)"), "\(run.stderr)"
    )
  }

  /// A copy that differs from the file that runs makes the plugin run
  /// against a library it was not built with; `pin` says so with advice
  /// `run` accepts: replace the copy with one identical to the file that
  /// runs (removing it would make `run` refuse the plugin), or rebuild.
  @Test func pinWarnsOfADifferentCopyWithAdviceRunAccepts() throws {
    let deployment = try Deployment(["Networking"])
    let dropIns = try deployment.dropIns(["Auth", "AppContracts"])
    let copy = dropIns + "/libAppContracts.so"
    // Other bytes, the same library to the loader: a byte past the end.
    let handle = try #require(FileHandle(forWritingAtPath: copy))
    try handle.seekToEnd()
    try handle.write(contentsOf: [0])
    try handle.close()
    try deployment.manifest(["Networking"], pinned: false, members: #" "pluginFolders": ["dropins"],"#)
    let pin = try deployment.run("pin")
    #expect(pin.exited && pin.status == 0, "\(pin.stderr)")
    #expect(
      pin.stderrLines == [
        "plugboard: pin: warning: library \(copy) (needed by 'libAuth.so') is not pinned: it never runs, since a "
          + "plugin loaded before 'libAuth.so' maps libAppContracts.so first, from \(deployment.contracts), and "
          + "the dynamic loader maps a name once; the two files differ — replace the copy with one identical "
          + "to \(deployment.contracts) (keep a copy: without one, 'libAuth.so' is refused), or rebuild "
          + "'libAuth.so' against that library"
      ])
    let list = try deployment.run("list")
    #expect(list.exited && list.status == 0, "\(list.stderr)")
  }

  /// A stale library pin is refreshed in place, one no plugin needs any
  /// more is dropped, and the count says so.
  @Test func pinRefreshesAStaleLibraryPinAndDropsAnUnneededOne() throws {
    let deployment = try Deployment(["Auth"])
    let stale = String(repeating: "0", count: 64)
    let path = try deployment.manifest(
      ["Auth"], pinned: true,
      members: #" "libraryPins": { "libAppContracts.so": "\#(stale)", "libGone.so": "\#(stale)" },"#)
    let pin = try deployment.run("pin")
    #expect(pin.exited && pin.status == 0, "\(pin.stderr)")
    #expect(
      pin.stdout.hasSuffix(
        "wrote 2 pins to \(path): 0 new, 1 changed, 1 unchanged; removed 1 library pin no plugin needs\n"),
      "\(pin.stdout)")
    let contracts = try digest(deployment.contracts)
    #expect(
      try String(contentsOfFile: path, encoding: .utf8).contains(
        #"  "formatVersion": 1, "libraryPins": { "libAppContracts.so": "\#(contracts)" },"#))
  }

  /// `pin` vets each library it pins, in the loader's words: it refuses
  /// the plugin whose closure the loader would refuse.
  @Test func pinRefusesANeighbourOthersCanWrite() throws {
    let deployment = try Deployment(["Auth"])
    let path = try deployment.manifest(["Auth"], pinned: false)
    #expect(chmod(deployment.contracts, 0o666) == 0)
    let before = try String(contentsOfFile: path, encoding: .utf8)
    let pin = try deployment.run("pin")
    #expect(pin.status == 1)
    #expect(
      pin.stderrLines == [
        "plugboard: pin: plugin 'Auth' (\(deployment.folder.path)/libAuth.so) needs libAppContracts.so, which it loads "
          + "from \(deployment.contracts), which is writable by group and others (mode 0666, owner uid "
          + "\(geteuid())); anyone who can write it can run code in plugboard — remove the write permission: "
          + "chmod go-w \(deployment.contracts); not pinned",
        "plugboard: pin: no pins written; \(path) is unchanged",
      ])
    #expect(try String(contentsOfFile: path, encoding: .utf8) == before)
  }

  /// The closure, not only the plugin's own neighbours: `libDeep.so` needs
  /// `libMiddle.so` beside it, which needs `libInner.so` beside it, each
  /// through `$ORIGIN`. `pin` pins both libraries; `libInner.so` replaced
  /// afterwards is refused before anything is mapped.
  @Test func aNeighboursNeighbourIsPinnedAndHeldToItsPin() throws {
    let folder = try TemporaryDirectory()
    try compileChain(in: folder)
    let path = try folder.write(
      "plugins.json",
      #"{ "formatVersion": 1, "requirePins": true, "plugins": [ { "name": "Deep", "path": "libDeep.so" } ] }"#
    )
    let (middle, inner) = (folder.path + "/libMiddle.so", folder.path + "/libInner.so")
    let pin = try Subprocess.plugboard(["pin", "--manifest", path])
    #expect(pin.exited && pin.status == 0, "\(pin.stderr)")
    let pinnedInner = try digest(inner)
    #expect(
      pin.stdout.contains("\n\(try digest(middle))  -  \(middle)  (library of Deep)\n"), "\(pin.stdout)")
    #expect(pin.stdout.contains("\n\(pinnedInner)  -  \(inner)  (library of Deep)\n"), "\(pin.stdout)")
    // Opened, both libraries with it: its entry point then returns NULL.
    let opened = try Subprocess.plugboard(["list", "--manifest", path])
    #expect(opened.stderr.contains("returned NULL from plugboard_entry_v1"), "\(opened.stderr)")

    try FileManager.default.removeItem(atPath: inner)
    try FileManager.default.copyItem(atPath: try CFixtures.directory.get() + "/libCrash.so", toPath: inner)
    let result = try Subprocess.plugboard(["list", "--manifest", path])
    #expect(result.exited && result.status == 1, "\(result.stderr)")
    #expect(
      result.stderrLines == [
        "plugboard: open: plugin 'Deep' (\(folder.path)/libDeep.so) needs libInner.so, which it loads from "
          + "\(inner), which does not match its pin: libraryPins[\"libInner.so\"] is \(pinnedInner), the file's "
          + "SHA-256 is \(try digest(inner)) — if the new file is trusted, run 'plugboard pin' to refresh the pins"
      ])
  }

  /// A neighbour whose run path uses `$ORIGIN` inside a longer path would
  /// resolve it against the private folder: refused, naming the library.
  @Test func aNeighbourWithOriginInsideARunPathEntryIsRefused() throws {
    let folder = try TemporaryDirectory()
    try compileChain(in: folder, middleRunPath: "$ORIGIN/../lib")
    let deep = folder.path + "/libDeep.so"
    let path = try folder.write(
      "plugins.json",
      #"{ "formatVersion": 1, "plugins": [ { "name": "Deep", "path": "libDeep.so", "sha256": "\#(try digest(deep))" } ] }"#
    )
    let result = try Subprocess.plugboard(["list", "--manifest", path])
    #expect(result.exited && result.status == 1, "\(result.stderr)")
    #expect(
      result.stderrLines == [
        "plugboard: open: plugin 'Deep' (\(deep)) needs libMiddle.so, which it loads from \(folder.path)/libMiddle.so, "
          + "which has the run path entry '$ORIGIN/../lib'; the libraries of a pinned plugin can use $ORIGIN only "
          + "as a whole entry — rebuild that library with $ORIGIN as a whole run path entry, or remove "
          + "plugins[0].sha256"
      ])
  }

  /// A library the run path finds through an entry other than `$ORIGIN`
  /// (here the absolute folder `lib` beside the plugin) is mapped by the
  /// loader from that file, so no sealed copy can stand in for it. `pin`
  /// says so; with `requirePins` the plugin is refused before anything of
  /// it runs (the library is replaced by one whose constructor crashes);
  /// without, it loads from the file as before.
  @Test func aLibraryFoundThroughAnotherRunPathEntryCannotBePinned() throws {
    let folder = try TemporaryDirectory()
    try compileChain(in: folder, neighbours: "lib")
    let (deep, lib) = (folder.path + "/libDeep.so", folder.path + "/lib")
    let path = try folder.write(
      "plugins.json",
      #"{ "formatVersion": 1, "requirePins": true, "plugins": [ { "name": "Deep", "path": "libDeep.so" } ] }"#
    )
    let pin = try Subprocess.plugboard(["pin", "--manifest", path])
    #expect(pin.exited && pin.status == 0, "\(pin.stderr)")
    #expect(pin.stdout.contains("\(try digest(deep))  Deep  \(deep)\n"), "\(pin.stdout)")
    #expect(!pin.stdout.contains("libMiddle.so"), "\(pin.stdout)")
    #expect(
      pin.stderrLines == [
        "plugboard: pin: warning: library \(lib)/libMiddle.so (needed by 'Deep') is found through the run path "
          + "entry '\(lib)', where the dynamic loader maps that file and not a sealed copy, so it cannot be "
          + "pinned and the manifest sets \"requirePins\": true, so 'Deep' will be refused — ship it beside the "
          + "plugin and rebuild with $ORIGIN as that run path entry, or install it in a system folder"
      ])

    // Pinned, without requirePins: opened, the library with it (its entry
    // point then returns NULL).
    let pinned = try String(contentsOfFile: path, encoding: .utf8)
    try pinned.replacingOccurrences(of: #""requirePins": true"#, with: #""requirePins": false"#)
      .write(toFile: path, atomically: true, encoding: .utf8)
    let opened = try Subprocess.plugboard(["list", "--manifest", path])
    #expect(opened.stderr.contains("returned NULL from plugboard_entry_v1"), "\(opened.stderr)")
    try pinned.write(toFile: path, atomically: true, encoding: .utf8)

    try FileManager.default.removeItem(atPath: lib + "/libMiddle.so")
    try FileManager.default.copyItem(
      atPath: try CFixtures.directory.get() + "/libNoEntryCrash.so", toPath: lib + "/libMiddle.so")
    for command in ["list", "check"] {
      let result = try Subprocess.plugboard([command, "--manifest", path])
      expect(
        result, of: command,
        toReport: "open: plugin 'Deep' (\(deep)) needs libMiddle.so, which it loads from \(lib)/libMiddle.so "
          + "through the run path entry '\(lib)', where the dynamic loader maps that file and not a sealed copy, "
          + "so it cannot be pinned, and the manifest sets \"requirePins\": true — ship it beside the plugin and "
          + "rebuild with $ORIGIN as that run path entry, or install it in a system folder")
    }
  }

  /// Compiles into `folder` `libDeep.so` (exporting a `plugboard_entry_v1`
  /// that returns NULL), which needs `libMiddle.so`, which needs
  /// `libInner.so`, each found through the run path `$ORIGIN` (the middle
  /// one's: `middleRunPath`). With `neighbours`, the two libraries are
  /// put in that subfolder instead, which `libDeep.so` names in its run
  /// path by its absolute path.
  private func compileChain(
    in folder: TemporaryDirectory, middleRunPath: String = "$ORIGIN", neighbours: String? = nil
  ) throws {
    let compiler = try #require(Toolchain.cCompiler)
    let libraries = neighbours.map { folder.path + "/" + $0 } ?? folder.path
    try FileManager.default.createDirectory(atPath: libraries, withIntermediateDirectories: true)
    try folder.write("inner.c", "int inner(void) { return 1; }\n")
    try folder.write("middle.c", "extern int inner(void);\nint middle(void) { return inner(); }\n")
    try folder.write(
      "deep.c",
      "extern int middle(void);\n"
        + "const void *plugboard_entry_v1(void) { return middle() ? (const void *)0 : (const void *)0; }\n")
    let link = ["-Wl,-rpath-link,\(libraries)", "-L\(libraries)"]
    for (output, source, flags) in [
      (libraries + "/libInner.so", "inner.c", ["-Wl,-rpath,$ORIGIN"]),
      (libraries + "/libMiddle.so", "middle.c", ["-Wl,-rpath,\(middleRunPath)", "-lInner"]),
      (
        folder.path + "/libDeep.so", "deep.c",
        ["-Wl,-rpath,\(neighbours == nil ? "$ORIGIN" : libraries)", "-lMiddle"]
      ),
    ] {
      let compiled = try Subprocess.run(
        compiler, ["-shared", "-fPIC", "-o", output, folder.path + "/" + source] + link + flags)
      #expect(compiled.exited && compiled.status == 0, "\(compiled.stderr)")
    }
  }

  /// The sample, whose Analytics ships its own build of the contracts in
  /// another folder, pinned whole with `requirePins`: it runs as unpinned.
  @Test func thePinnedSampleRunsWithRequirePins() throws {
    let analytics = try ThirdPartyBuild.analytics.get()
    let folder = try TemporaryDirectory()
    let path = try folder.write(
      "plugins.json",
      SampleManifest.text(analytics: analytics).replacingOccurrences(
        of: #""formatVersion": 1,"#, with: #""formatVersion": 1, "requirePins": true,"#))
    let pin = try Subprocess.plugboard(["pin", "--manifest", path])
    #expect(pin.exited && pin.status == 0, "\(pin.stderr)")
    let contracts = try #require(FilePath.canonical(BuildProducts.library("AppContracts")))
    #expect(
      try String(contentsOfFile: path, encoding: .utf8).contains(
        "\"\(contracts)\": \"\(try digest(contracts))\""))
    let run = try Subprocess.plugboard(["run", "--manifest", path])
    #expect(run.stderr == "")
    #expect(run.status == 0)
    #expect(run.stdout == ProfileDeploymentTests.liveOutput)
  }
}
