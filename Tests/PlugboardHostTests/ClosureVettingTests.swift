import Foundation
import PlugboardDigest
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

#if canImport(Glibc)
  import Glibc
#endif

/// What the dynamic loader maps for a plugin is vetted to the last
/// library, not only the plugin's own needs: a library of a neighbour
/// others can write, a neighbour's empty run path entry, a neighbour that
/// needs a library by its path. `check`, `list`, `run` and `pin` refuse the
/// same file before anything of the closure is mapped, pins or not.
@Suite(.blocking) struct ClosureVettingTests {
  private static let compiler = Toolchain.cCompiler != nil

  @Test(.enabled(if: compiler, "needs the toolchain's clang to build the libraries"))
  func aSafeClosurePassesVetting() throws {
    let fixture = try ClosureFixture()
    let result = try Subprocess.plugboard(["check", "--manifest", try fixture.manifest()])
    // The fixture's make_bundle returns nothing: it gets that far.
    #expect(!result.stdout.contains("vet:"), "\(result.stdout)")
    #expect(result.stdout.contains("make_bundle"), "\(result.stdout)")
  }

  @Test(.enabled(if: compiler, "needs the toolchain's clang to build the libraries"))
  func aLibraryOfANeighbourOthersCanWriteIsRefusedAlike() throws {
    let fixture = try ClosureFixture()
    let manifest = try fixture.manifest()
    let libB = fixture.path + "/libB.so"
    #expect(chmod(libB, 0o666) == 0)
    let problem =
      "plugin 'Chain' (\(fixture.plugin)) needs libA.so, which needs libB.so, which it loads from \(libB), which "
      + "is writable by group and others (mode 0666, owner uid \(geteuid())); anyone who can write it can run "
      + "code in plugboard — remove the write permission: chmod go-w \(libB)"
    for command in ["check", "list", "run"] {
      let result = try Subprocess.plugboard([command, "--manifest", manifest])
      #expect(result.status == (command == "run" ? 78 : 1), "\(command): \(result.stderr)")
      #expect(reports(result, command: command, problem), "\(command): \(result.stdout)\(result.stderr)")
    }
    let pinned = try Subprocess.plugboard(["pin", "--manifest", manifest])
    #expect(pinned.status == 1)
    #expect(pinned.stderrLines.first == "plugboard: pin: \(problem); not pinned")
  }

  /// Pinned and sealed, every pin matching: the sealed copy of `libA.so`
  /// still searches the current directory through its empty entry.
  /// A library of a neighbour whose dynamic section the reader cannot
  /// read: refused, with what the reader found, as the plugin itself is.
  @Test(.enabled(if: compiler, "needs the toolchain's clang to build the libraries"))
  func aLibraryOfANeighbourThatIsNoLibraryIsRefusedWithWhatWasFound() throws {
    let fixture = try ClosureFixture()
    let libB = fixture.path + "/libB.so"
    try Data("not a library\n".utf8).write(to: URL(fileURLWithPath: libB))
    let result = try Subprocess.plugboard(["check", "--manifest", try fixture.manifest()])
    #expect(result.status == 1)
    let problem =
      "vet: plugin 'Chain' (\(fixture.plugin)) needs libA.so, which needs libB.so, which it loads from \(libB), "
      + "which has a dynamic section plugboard cannot read (found a file that is not a 64-bit little-endian ELF "
      + "object for x86-64 or AArch64), so what the dynamic loader would map for it cannot be vetted — replace "
      + "it with the library it should be (check with: readelf -d \(libB))"
    #expect(result.stdout.contains("\n  \(problem)\n"), "\(result.stdout)")
  }

  @Test(.enabled(if: compiler, "needs the toolchain's clang to build the libraries"))
  func aNeighboursEmptyRunPathEntryIsRefusedWithEveryPinMatching() throws {
    let fixture = try ClosureFixture(aRunPath: "$ORIGIN:", z: .byName)
    try expectRefusedFromAnotherUsersFolder(
      fixture,
      problem:
        "needs libA.so, which it loads from \(fixture.path)/libA.so, which has the run path entry \"\" "
        + "($ORIGIN:), an empty entry, which the dynamic loader takes as the current directory: whoever "
        + "controls the folder plugboard is started in chooses the libraries it loads — rebuild libA.so "
        + "without that entry (check with: readelf -d \(fixture.path)/libA.so | grep PATH)")
  }

  @Test(.enabled(if: compiler, "needs the toolchain's clang to build the libraries"))
  func aNeighbourNeedingALibraryByPathIsRefusedWithEveryPinMatching() throws {
    let fixture = try ClosureFixture(z: .byPath)
    try expectRefusedFromAnotherUsersFolder(
      fixture,
      problem:
        "needs libA.so, which it loads from \(fixture.path)/libA.so, which needs the library ./libZ.so "
        + "by its path, which the dynamic loader opens wherever it leads, outside every check — rebuild "
        + "libA.so to need that library by its name")
  }

  /// A run path folder the loader reaches through a link in a folder
  /// others can write: whoever re-points the link chooses every library
  /// found there, though where it leads today is safe.
  @Test(.enabled(if: compiler, "needs the toolchain's clang to build the libraries"))
  func aRunPathEntryReachedThroughALinkOthersCanRepointIsRefused() throws {
    let fixture = try ClosureFixture(aRunPath: "$ORIGIN:$ORIGIN/shared/current", z: .byName)
    let manifest = try fixture.manifest()
    let shared = try sharedRelease(of: fixture)
    let problem =
      "plugin 'Chain' (\(fixture.plugin)) needs libA.so, which it loads from \(fixture.path)/libA.so, which has "
      + "the run path entry \"$ORIGIN/shared/current\" ($ORIGIN:$ORIGIN/shared/current), which is reached "
      + "through the link \(shared)/current, which lies in the folder \(shared), which is writable by group and "
      + "others (mode 0777, owner uid \(geteuid())); anyone who can write there can replace the link, and so "
      + "the libraries the plugin loads — chmod go-w \(shared)"
    for command in ["check", "run"] {
      let result = try Subprocess.plugboard([command, "--manifest", manifest])
      #expect(result.status == (command == "run" ? 78 : 1), "\(command): \(result.stderr)")
      #expect(reports(result, command: command, problem), "\(command): \(result.stdout)\(result.stderr)")
    }
  }

  /// The same link flipped by another user between root's release and
  /// her own folder, over and over, while `check` and `run` start: her
  /// library never runs, whatever the link leads to at each moment.
  @Test(
    .enabled(if: compiler, "needs the toolchain's clang to build the libraries"),
    .enabled(if: geteuid() == 0, "needs root, to give a folder and its library to another user"))
  func aRunPathLinkFlippedDuringStartNeverRunsAnotherUsersLibrary() throws {
    let fixture = try ClosureFixture(aRunPath: "$ORIGIN:$ORIGIN/shared/current", z: .byName)
    let manifest = try fixture.manifest()
    let shared = try sharedRelease(of: fixture)
    try expectNeverRunsTheirs(fixture, manifest: manifest, shared: shared)
  }

  /// A neighbour the loader finds beside the plugin through a link that
  /// another user flips between root's release and her own folder, over
  /// and over, while `check` and `run` start: the link lies in a folder
  /// others can write, so it is refused whatever it leads to at each
  /// moment, and her library never runs.
  @Test(
    .enabled(if: compiler, "needs the toolchain's clang to build the libraries"),
    .enabled(if: geteuid() == 0, "needs root, to give a folder and its library to another user"))
  func aNeighbourLinkFlippedDuringStartNeverRunsAnotherUsersLibrary() throws {
    let fixture = try ClosureFixture(z: .byName)
    let manifest = try fixture.manifest()
    let shared = try sharedRelease(of: fixture)
    #expect(symlink("shared/current/libZ.so", fixture.path + "/libZ.so") == 0)
    try expectNeverRunsTheirs(fixture, manifest: manifest, shared: shared)
  }

  /// What is vetted is what is loaded: the plugin's folder exchanged, over
  /// and over, with a staged one whose plugin the vetting refuses (writable
  /// by all, and bringing in `libZ.so`), while `check` and `run` start. The
  /// loader is handed the plugin through the folder vetted, held open, and
  /// only if its name there is still the file vetted: the staged plugin
  /// never runs, whichever folder each look finds.
  @Test(.enabled(if: compiler, "needs the toolchain's clang to build the libraries"))
  func aFolderSwappedAfterVettingNeverLoadsTheUnvettedPlugin() throws {
    let vetted = try ClosureFixture()
    let staged = try ClosureFixture(z: .byName)
    try FileManager.default.copyItem(atPath: staged.builtZ, toPath: staged.path + "/libZ.so")
    #expect(chmod(staged.plugin, 0o666) == 0)
    let releases = try StagedRelease(vetted: vetted, staged: staged)
    defer { releases.restore() }
    let manifest = releases.manifest
    let witness = try TemporaryDirectory()
    let swapper = FolderSwapper(releases.live, releases.next)
    defer { swapper.stop() }
    for round in 0..<40 {
      for command in ["check", "run"] {
        let result = try Subprocess.plugboard([command, "--manifest", manifest], in: witness.path)
        #expect(
          !FileManager.default.fileExists(atPath: witness.path + "/ran-Z"),
          "\(command), round \(round): the unvetted plugin ran: \(result.stdout)\(result.stderr)")
      }
    }
  }

  /// What is vetted is what is loaded, to the plugin's neighbours: the
  /// plugin's folder exchanged, at the moment it is held for the loader,
  /// with a staged release that holds the same plugin file (a hard link)
  /// but a `libA.so` that brings in a `libZ.so` writable by all. The
  /// neighbours are read and judged through the held folder, so the
  /// staged `libZ.so` is refused there and never runs, whichever folder
  /// the plugin's path named while it was vetted.
  @Test(.enabled(if: compiler, "needs the toolchain's clang to build the libraries"))
  func aFolderSwappedWhenHeldHasItsNeighboursVettedThroughTheHeldFolder() throws {
    let preload = try CFixtures.folderSwapPreload.get()
    let vetted = try ClosureFixture()
    let staged = try ClosureFixture(z: .byName)
    try FileManager.default.copyItem(atPath: staged.builtZ, toPath: staged.path + "/libZ.so")
    #expect(chmod(staged.path + "/libZ.so", 0o666) == 0)
    #expect(unlink(staged.plugin) == 0 && link(vetted.plugin, staged.plugin) == 0)
    let releases = try StagedRelease(vetted: vetted, staged: staged)
    defer { releases.restore() }
    let (live, next) = (releases.live, releases.next)
    let witness = try TemporaryDirectory()
    // Named as the folder was named when it was held.
    let libZ = live + "/libZ.so"
    let problem =
      "plugin 'Chain' (\(live)/libChain.so) needs libA.so, which needs libZ.so, which it loads from \(libZ), "
      + "which is writable by group and others (mode 0666, owner uid \(geteuid())); anyone who can write it can "
      + "run code in plugboard — remove the write permission: chmod go-w \(libZ)"
    for command in ["check", "run"] {
      // The vetted release in place again, as the command before found it.
      if FileManager.default.fileExists(atPath: live + "/libZ.so") {
        #expect(rename(live, releases.top.path + "/aside") == 0 && rename(next, live) == 0)
        #expect(rename(releases.top.path + "/aside", next) == 0)
      }
      let result = try Subprocess.plugboard(
        [command, "--manifest", releases.manifest], in: witness.path,
        environment: ["LD_PRELOAD": preload, "FOLDER_SWAP_AT": live, "FOLDER_SWAP_WITH": next])
      #expect(
        !FileManager.default.fileExists(atPath: witness.path + "/ran-Z"),
        "\(command): the unvetted neighbour ran: \(result.stdout)\(result.stderr)")
      #expect(result.status == (command == "run" ? 78 : 1), "\(command): \(result.stderr)")
      #expect(reports(result, command: command, problem), "\(command): \(result.stdout)\(result.stderr)")
    }
  }

  /// `check` and `run`, 20 times each, while another user flips
  /// `shared/current` between root's release and her own folder holding
  /// `libZ.so`: each refused, and her library never runs.
  private func expectNeverRunsTheirs(_ fixture: ClosureFixture, manifest: String, shared: String) throws {
    let theirs = fixture.path + "/theirs"
    try FileManager.default.createDirectory(atPath: theirs, withIntermediateDirectories: false)
    try FileManager.default.copyItem(atPath: fixture.builtZ, toPath: theirs + "/libZ.so")
    for file in [theirs, theirs + "/libZ.so"] { #expect(chown(file, OtherUser.uid, OtherUser.gid) == 0) }
    let witness = try TemporaryDirectory()
    let flipper = LinkFlipper(
      link: shared + "/current", between: "../release", and: "../theirs", owner: OtherUser.uid)
    defer { flipper.stop() }
    for round in 0..<20 {
      for command in ["check", "run"] {
        let result = try Subprocess.plugboard([command, "--manifest", manifest], in: witness.path)
        #expect(result.status == (command == "run" ? 78 : 1), "\(command), round \(round): \(result.stderr)")
        #expect(
          !FileManager.default.fileExists(atPath: witness.path + "/ran-Z"),
          "\(command), round \(round): another user's libZ.so ran")
      }
    }
  }

  /// `shared/` (mode 0777) beside the fixture, holding `current`, a link to
  /// `release/`, root's folder with a `libZ.so` of its own that marks
  /// nothing (a copy of `libB.so`). Returns `shared/`.
  private func sharedRelease(of fixture: ClosureFixture) throws -> String {
    let shared = fixture.path + "/shared"
    let release = fixture.path + "/release"
    for folder in [shared, release] {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    }
    #expect(chmod(shared, 0o777) == 0)
    #expect(chmod(release, 0o755) == 0)
    try FileManager.default.copyItem(atPath: fixture.path + "/libB.so", toPath: release + "/libZ.so")
    try FileManager.default.createSymbolicLink(atPath: shared + "/current", withDestinationPath: "../release")
    return shared
  }

  /// Whether `command` reported `problem` at the vet stage: `check` in
  /// its report on standard output, the others on standard error.
  private func reports(_ result: ProcessResult, command: String, _ problem: String) -> Bool {
    command == "check"
      ? result.stdoutLines.contains("  vet: " + problem)
      : result.stderrLines.contains("plugboard: vet: " + problem)
  }

  /// `check` run from a folder holding another user's `libZ.so`, with
  /// `requirePins` and pins for the plugin and both its libraries.
  private func expectRefusedFromAnotherUsersFolder(_ fixture: ClosureFixture, problem: String) throws {
    func digest(_ file: String) throws -> String { try SHA256.hash(file: file).get().hex }
    let manifest = try fixture.folder.write(
      "plugins.json",
      #"{ "formatVersion": 1, \#(BuildProducts.rootsMember) "requirePins": true, "libraryPins": { "#
        + #""libA.so": "\#(try digest(fixture.path + "/libA.so"))", "#
        + #""libB.so": "\#(try digest(fixture.path + "/libB.so"))" }, "plugins": [ "#
        + #"{ "name": "Chain", "path": "libChain.so", "sha256": "\#(try digest(fixture.plugin))" } ] }"#)
    let theirs = try TemporaryDirectory()
    try FileManager.default.copyItem(atPath: fixture.builtZ, toPath: theirs.path + "/libZ.so")
    for command in ["check", "run"] {
      let result = try Subprocess.plugboard([command, "--manifest", manifest], in: theirs.path)
      #expect(result.status == (command == "run" ? 78 : 1), "\(command): \(result.stderr)")
      #expect(
        reports(result, command: command, "plugin 'Chain' (\(fixture.plugin)) \(problem)"),
        "\(command): \(result.stdout)\(result.stderr)")
      #expect(!FileManager.default.fileExists(atPath: theirs.path + "/ran-Z"), "\(command) ran libZ.so")
    }
  }
}
