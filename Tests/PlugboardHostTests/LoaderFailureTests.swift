import Foundation
import PlugboardKit
import PlugboardTestSupport
import Testing

@testable import PlugboardCLI
@testable import PlugboardEngine

/// Every way a plugin can fail to load, each reported with its stage and an
/// exact message, with exit status 1 and the process ending by exiting.
@Suite(.blocking) struct LoaderFailureTests {
  /// The message for a plugin named `name` whose library is `file`, as
  /// `plugboard` prints it, given the fixture folder.
  typealias Expectation = @Sendable (_ file: String, _ folder: String) -> String

  static let host = "Swift \(PlugboardBuild.compilerVersion)"

  static let cases: [(name: String, file: String, expected: Expectation)] = [
    (
      "Gone", "libGone.so",
      { file, folder in
        "locate: plugin 'Gone' (\(file)) does not exist (plugins[0].path is relative to the manifest's "
          + "folder, \(folder))"
      }
    ),
    (
      "Folder", "folder.so",
      { file, _ in "locate: plugin 'Folder' (\(file)) is a directory; expected a shared library file" }
    ),
    (
      "Text", "libText.so",
      { file, _ in
        #"open: plugin 'Text' (\#(file)) is not a shared library: expected an ELF file, found text starting "this is not a sh""#
      }
    ),
    (
      "Object", "libObject.so",
      { file, _ in
        "open: plugin 'Object' (\(file)) is not a shared library: expected an ELF shared object (ET_DYN), "
          + "found an ELF relocatable object (ET_REL)"
      }
    ),
    (
      "Unresolved", "libUnresolved.so",
      { file, _ in
        "open: plugin 'Unresolved' (\(file)) could not be loaded: \(LoaderFailureTests.unresolvedC(file))"
      }
    ),
    (
      "NoEntry", "libNoEntry.so",
      { file, _ in
        "find entry: plugin 'NoEntry' (\(file)) does not export plugboard_entry_v1; expected a Plugboard plugin "
          + "(its dynamic symbol table, read before opening it, has no plugboard_entry_v1, so none of its code ran)"
      }
    ),
    (
      // Refused from its dynamic symbol table, before dlopen: its
      // constructor, which crashes, never runs.
      "NoEntryCrash", "libNoEntryCrash.so",
      { file, _ in
        "find entry: plugin 'NoEntryCrash' (\(file)) does not export plugboard_entry_v1; expected a Plugboard "
          + "plugin (its dynamic symbol table, read before opening it, has no plugboard_entry_v1, so none of "
          + "its code ran)"
      }
    ),
    (
      "ExecStack", "libExecStack.so",
      { file, _ in
        "vet: plugin 'ExecStack' (\(file)) asks for an executable stack (its PT_GNU_STACK header is marked "
          + "executable): opening it would make the stack of every thread of plugboard executable — rebuild it "
          + "without -z execstack (and without assembly that lacks a .note.GNU-stack section); check with: "
          + "readelf -lW \(file) | grep GNU_STACK"
      }
    ),
    (
      "WritableCode", "libWritableCode.so",
      { file, _ in
        "vet: plugin 'WritableCode' (\(file)) has a loadable segment (program header 2) that is both writable "
          + "and executable, which lets a memory-safety bug anywhere in plugboard write code — rebuild it so "
          + "that no section is both (check with: readelf -lW \(file) | grep LOAD)"
      }
    ),
    (
      "NoOpen", "libNoOpen.so",
      { file, _ in
        "vet: plugin 'NoOpen' (\(file)) is marked not to be opened by dlopen (DF_1_NOOPEN, linked with "
          + "-z nodlopen); a plugin must be openable — rebuild it without -z nodlopen"
      }
    ),
    (
      "EmptyRunPath", "libEmptyRunPath.so",
      { file, _ in
        "vet: plugin 'EmptyRunPath' (\(file)) has the run path entry \"\" ($ORIGIN:), an empty entry, which the "
          + "dynamic loader takes as the current directory: whoever controls the folder plugboard is started in "
          + "chooses the libraries it loads — rebuild it without that entry (check with: readelf -d \(file) | grep "
          + "PATH)"
      }
    ),
    (
      "RelativeRunPath", "libRelativeRunPath.so",
      { file, _ in
        "vet: plugin 'RelativeRunPath' (\(file)) has the run path entry \"lib\" (lib), a relative entry, which the "
          + "dynamic loader takes from the current directory: whoever controls the folder plugboard is started in "
          + "chooses the libraries it loads — rebuild it without that entry (check with: readelf -d \(file) | grep "
          + "PATH)"
      }
    ),
    (
      "BuildRunPath", "libBuildRunPath.so",
      { file, _ in
        "vet: plugin 'BuildRunPath' (\(file)) has the run path entry \"/tmp/plugboard-gone-build/lib\" "
          + "(/tmp/plugboard-gone-build/lib), which names /tmp/plugboard-gone-build/lib, a folder that does not "
          + "exist, under /tmp, which is writable by group and others (\(LoaderFailureTests.temporaryFolder)), so "
          + "they can create it: whoever creates it first chooses the libraries the plugin loads — rebuild it "
          + "without that entry (check with: readelf -d \(file) | grep PATH)"
      }
    ),
    (
      "LongRunPath", "libLongRunPath.so",
      { file, _ in
        "vet: plugin 'LongRunPath' (\(file)) has a dynamic section plugboard cannot read (found a name longer "
          + "than a library's file name or a run path can be), so what the dynamic loader would map for it cannot "
          + "be vetted — rebuild it (check with: readelf -d \(file))"
      }
    ),
    (
      "NullEntry", "libNullEntry.so",
      { file, _ in
        "find entry: plugin 'NullEntry' (\(file)) returned NULL from plugboard_entry_v1; expected a pointer to "
          + "its plugboard_plugin_v1 descriptor"
      }
    ),
    (
      "ABI2", "libABI2.so",
      { file, _ in
        "check versions: plugin 'ABI2' (\(file)) was built for plugin ABI 2; this host speaks 1 — rebuild the "
          + "plugin against PlugboardKit \(PlugboardBuild.loadedKitVersion): \(RebuildCommand.forLibrary(at: file))"
      }
    ),
    (
      "OldSwift", "libOldSwift.so",
      { file, _ in
        "check versions: plugin 'OldSwift' (\(file)) was compiled by Swift 6.2.0; this host was compiled by "
          + "\(host) — rebuild the plugin with the host's toolchain: \(RebuildCommand.forLibrary(at: file))"
      }
    ),
    (
      "OldKit", "libOldKit.so",
      { file, _ in
        "check versions: plugin 'OldKit' (\(file)) was compiled against PlugboardKit 0.0.9; this host uses "
          + "PlugboardKit \(PlugboardBuild.kitRelease), another major version, which promises no compatibility "
          + "— rebuild the plugin against PlugboardKit \(KitVersions.current.major).x, such as this host's "
          + "\(PlugboardBuild.kitRelease): \(RebuildCommand.forLibrary(at: file))"
      }
    ),
    (
      "NewerKit", "libNewerKit.so",
      { file, _ in
        "check versions: plugin 'NewerKit' (\(file)) was compiled against PlugboardKit \(EvolvedKitBuild.release), "
          + "newer than this host's PlugboardKit \(PlugboardBuild.kitRelease): it may call what this host's "
          + "PlugboardKit lacks — upgrade the host to one with PlugboardKit \(EvolvedKitBuild.release) or a later "
          + "\(KitVersions.current.major).x, or rebuild the plugin against PlugboardKit "
          + "\(PlugboardBuild.kitRelease): \(RebuildCommand.forLibrary(at: file))"
      }
    ),
    (
      "NextMajorKit", "libNextMajorKit.so",
      { file, _ in
        "check versions: plugin 'NextMajorKit' (\(file)) was compiled against PlugboardKit "
          + "\(KitVersions.nextMajor); this host uses PlugboardKit \(PlugboardBuild.kitRelease), another major "
          + "version, which promises no compatibility — rebuild the plugin against PlugboardKit "
          + "\(KitVersions.current.major).x, such as this host's \(PlugboardBuild.kitRelease): "
          + RebuildCommand.forLibrary(at: file)
      }
    ),
    (
      "UnreadableKit", "libUnreadableKit.so",
      { file, _ in
        "check versions: plugin 'UnreadableKit' (\(file)) was compiled against PlugboardKit 'tuesday', which is "
          + "not a version (MAJOR.MINOR.PATCH); this host uses PlugboardKit \(PlugboardBuild.kitRelease) — "
          + "rebuild the plugin against the host's PlugboardKit: \(RebuildCommand.forLibrary(at: file))"
      }
    ),
    (
      "Misnamed", "libMisnamed.so",
      { file, _ in
        "check versions: plugin 'Misnamed' (\(file)) calls itself 'SomethingElse'; the manifest names it "
          + "'Misnamed' (plugins[0]) — correct the name or the path"
      }
    ),
    (
      "EvilName", "libEvilName.so",
      { file, _ in
        "check versions: plugin 'EvilName' (\(file)) has a descriptor whose name "
          + #""Evil\u{1B}[31m\u{A}plugboard: check: all good" contains control characters; expected printable UTF-8"#
      }
    ),
    (
      "NoBundle", "libNoBundle.so",
      { file, _ in
        "make assemblies: plugin 'NoBundle' (\(file)) returned NULL from make_bundle; expected a PluginBundle"
      }
    ),
  ]

  private func fixtures() throws -> String {
    let folder = try CFixtures.directory.get()
    try? FileManager.default.createDirectory(atPath: folder + "/folder.so", withIntermediateDirectories: true)
    return folder
  }

  @Test(arguments: cases.indices)
  func reportsEachFailure(index: Int) throws {
    let (name, file, expected) = Self.cases[index]
    let folder = try fixtures()
    let manifest = try TemporaryDirectory()
    let path = try manifest.write(
      "plugins.json",
      #"{ "formatVersion": 1, \#(BuildProducts.rootsMember) "plugins": [ { "name": "\#(name)", "path": "\#(folder)/\#(file)" } ] }"#
    )
    // The "does not exist" case reads better with a relative path.
    let relativeManifest = try manifest.writeManifest([(name, file)], name: "relative.json")
    let result = try Subprocess.plugboard(["list", "--manifest", name == "Gone" ? relativeManifest : path])
    let shown = name == "Gone" ? manifest.path + "/" + file : folder + "/" + file
    #expect(result.exited)
    #expect(result.status == 1)
    #expect(result.stderrLines == ["plugboard: " + expected(shown, name == "Gone" ? manifest.path : folder)])
  }

  /// Runs `plugboard command` on a deployment of the one plugin `name`.
  private func plugboard(_ command: String, plugin name: String, library: String) throws -> ProcessResult {
    let folder = try TemporaryDirectory()
    let manifest = try folder.writeManifest([(name, library)])
    return try Subprocess.plugboard([command, "--manifest", manifest])
  }

  @Test func reportsAnAssemblyThatThrows() throws {
    let library = BuildProducts.library("ThrowingPlugin")
    let result = try plugboard("run", plugin: "Throwing", library: library)
    #expect(result.exited)
    #expect(result.status == 78)  // run: the deployment is broken
    #expect(
      result.stderrLines == [
        "plugboard: assemble: plugin 'Throwing' (\(library)) failed to assemble: "
          + "ThrowingPlugin.ThrowingAssembly.assemble(container:) threw: missing configuration value 'api-key'",
        "plugboard: the deployment has 1 problem; the application was not run",
      ])
  }

  /// A plugin with PlugboardKit's sources built into it passes every version
  /// check (same compiler, same sources), but its bundle is its own copy's
  /// type: refused at assemble, with the fix.
  @Test func reportsAPluginCarryingItsOwnPlugboardKit() throws {
    let library = try OwnKitBuild.library.get()
    let result = try plugboard("list", plugin: "OwnKit", library: library)
    #expect(result.exited)
    #expect(result.status == 1)
    #expect(
      result.stderrLines == [
        "plugboard: make assemblies: plugin 'OwnKit' (\(library)) returned a PlugboardKit.PluginBundle that is not "
          + "this host's PlugboardKit.PluginBundle: the plugin carries its own copy of PlugboardKit — depend "
          + "on the PlugboardKit product (a .dynamic library) instead of building its sources into the plugin"
      ])
  }

  /// All failures in one deployment, among the healthy sample plugins: each
  /// is reported, in manifest order, and the healthy plugins still load.
  @Test func collectsEveryFailureAndLoadsTheRest() throws {
    let folder = try fixtures()
    let broken = Self.cases.filter { $0.name != "Gone" }
    let plugins =
      BuildProducts.samplePlugins.map { ($0, BuildProducts.library($0)) }
      + broken.map { ($0.name, folder + "/" + $0.file) } + [
        ("Throwing", BuildProducts.library("ThrowingPlugin"))
      ]
    let deployment = try TemporaryDirectory()
    let manifest = try deployment.writeManifest(plugins)
    let result = try Subprocess.plugboard(["list", "--manifest", manifest])
    #expect(result.exited)
    #expect(result.status == 1)
    #expect(
      result.stdout.contains(
        "\(plugins.count) plugins: \(BuildProducts.samplePlugins.count) loaded, 0 disabled, "
          + "\(broken.count + 1) failed"))
    let messages = broken.map { "plugboard: " + $0.expected(folder + "/" + $0.file, folder) }
    #expect(
      Array(result.stderrLines.prefix(messages.count))
        == messages.map {
          $0.replacingOccurrences(
            of: "(plugins[0])", with: "(plugins[\(plugins.firstIndex { $0.0 == "Misnamed" } ?? 0)])")
        })
    #expect(result.stderrLines.count == broken.count + 1)

    let run = try Subprocess.plugboard(["run", "--manifest", manifest])
    #expect(run.status == 78)  // run: the deployment is broken
    #expect(run.stdout == "")
    #expect(
      run.stderrLines.last
        == "plugboard: the deployment has \(broken.count + 1) problems; the application was not run")
  }

  /// The explanation of the C fixture's undefined symbol, with the
  /// dynamic loader's words at the end.
  /// `/tmp`'s mode and owner as plugboard describes them, `mode 1777,
  /// owner uid 0` on most machines.
  static var temporaryFolder: String {
    var status = stat()
    guard stat("/tmp", &status) == 0 else { return "/tmp cannot be examined" }
    let octal = String(status.st_mode & 0o7777, radix: 8)
    let mode = String(repeating: "0", count: max(0, 4 - octal.count)) + octal
    return "mode \(mode), owner uid \(status.st_uid)"
  }

  static func unresolvedC(_ file: String) -> String {
    "it needs the C symbol plugboard_fixture_missing, which no library loaded in this process defines; a C "
      + "name does not say which library should define it — deploy the library that defines it beside the "
      + "plugin, or rebuild the plugin against the libraries it is deployed with (dlerror: \(file): undefined "
      + "symbol: plugboard_fixture_missing)"
  }
}

/// A plugin built for another machine is refused before `dlopen`, against
/// the host's own ELF header (read once, from /proc/self/exe).
@Suite(.blocking) struct ForeignMachineTests {
  @Test func refusesALibraryBuiltForAnotherMachine() throws {
    let folder = try TemporaryDirectory()
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: BuildProducts.library("Healthy"))))
    // e_machine, little-endian: 183 is AArch64.
    bytes[18] = 183
    bytes[19] = 0
    let library = folder.path + "/libHealthy.so"
    try Data(bytes).write(to: URL(fileURLWithPath: library))
    let manifest = try folder.writeManifest([("Healthy", "libHealthy.so")])
    let result = try Subprocess.plugboard(["list", "--manifest", manifest])
    #expect(result.exited)
    #expect(result.status == 1)
    #expect(
      result.stderrLines == [
        "plugboard: open: plugin 'Healthy' (\(library)) was built for another machine: expected x86-64, 64-bit, "
          + "found AArch64, 64-bit"
      ])
  }
}
