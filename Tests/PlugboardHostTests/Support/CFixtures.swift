import Foundation
import PlugboardKit

/// The malformed plugins of `Tests/Fixtures/fixture_plugin.c`, compiled with
/// the toolchain's `clang` (see ``Toolchain/cCompiler``) once per test run
/// into a temporary folder.
enum CFixtures {
  typealias Failure = FixtureFailure

  /// The variants by file name, with their compiler flags.
  static let variants: [String: [String]] = [
    "libNoEntry.so": ["-shared", "-DFIXTURE_NO_ENTRY"],
    "libUnresolved.so": ["-shared", "-DFIXTURE_UNRESOLVED"],
    "libNullEntry.so": ["-shared", "-DFIXTURE_NULL_ENTRY"],
    "libABI2.so": ["-shared", "-DFIXTURE_ABI2"],
    "libOldSwift.so": ["-shared", "-DFIXTURE_DESCRIPTOR"] + descriptor(name: "OldSwift", swift: "6.2.0"),
    "libOldKit.so": ["-shared", "-DFIXTURE_DESCRIPTOR"] + descriptor(name: "OldKit", kit: "0.0.9"),
    // Compiled against a PlugboardKit this host's does not promise to serve:
    // the next minor release, the next major one, and no version at all.
    "libNewerKit.so": ["-shared", "-DFIXTURE_DESCRIPTOR"]
      + descriptor(name: "NewerKit", kit: EvolvedKitBuild.release + "+0123456789abcdef"),
    "libNextMajorKit.so": ["-shared", "-DFIXTURE_DESCRIPTOR"]
      + descriptor(name: "NextMajorKit", kit: KitVersions.nextMajor),
    "libUnreadableKit.so": ["-shared", "-DFIXTURE_DESCRIPTOR"]
      + descriptor(name: "UnreadableKit", kit: "tuesday"),
    "libNoBundle.so": ["-shared", "-DFIXTURE_DESCRIPTOR"] + descriptor(name: "NoBundle"),
    "libMisnamed.so": ["-shared", "-DFIXTURE_DESCRIPTOR"] + descriptor(name: "SomethingElse"),
    // A name that would recolour the terminal and forge a line of output.
    "libEvilName.so": ["-shared", "-DFIXTURE_DESCRIPTOR"]
      + descriptor(name: #"Evil\033[31m\nplugboard: check: all good"#),
    // For `check`'s probe: a plugin that crashes, and one that hangs, while loading.
    "libCrash.so": ["-shared", "-DFIXTURE_CRASH"],
    "libHang.so": ["-shared", "-DFIXTURE_HANG"],
    // For the fault corpus: a constructor that exits with status 0, and an
    // entry point that crashes, aborts, or never returns.
    "libExit.so": ["-shared", "-DFIXTURE_EXIT"],
    "libEntryCrash.so": ["-shared", "-DFIXTURE_ENTRY_CRASH"],
    "libEntryAbort.so": ["-shared", "-DFIXTURE_ENTRY_ABORT"],
    "libEntryHang.so": ["-shared", "-DFIXTURE_ENTRY_HANG"],
    // For the process model: a constructor deaf to stop requests that
    // never returns, one that signals its own process, one that leaves a
    // process behind before its entry point crashes.
    "libDeafHang.so": ["-shared", "-DFIXTURE_DEAF_HANG"],
    "libSelfTerm.so": ["-shared", "-DFIXTURE_SELF_TERM"],
    "libStrayChild.so": ["-shared", "-DFIXTURE_STRAY_CHILD"],
    // A constructor that forges a progress event to switch its watchdog off.
    "libForgeTimeout.so": ["-shared", "-DFIXTURE_FORGE_TIMEOUT"],
    // Constructors that take plugboard's descriptors, or its standard output.
    "libCloseDescriptors.so": ["-shared", "-DFIXTURE_CLOSE_FDS"],
    "libBreakEventLoop.so": ["-shared", "-DFIXTURE_BREAK_EVENT_LOOP"],
    "libChattyThread.so": ["-shared", "-DFIXTURE_CHATTY_THREAD", "-pthread"],
    // Exit-time plugin code: a destructor that hangs, one that crashes.
    "libDtorHang.so": ["-shared", "-DFIXTURE_DTOR_HANG"],
    "libDtorCrash.so": ["-shared", "-DFIXTURE_DTOR_CRASH"],
    // Blame by address: plugin code that crashes while another plugin is
    // being opened, on that plugin's thread or on one of its own; and a
    // stack overflow. Frame pointers kept, as plugboard's frame walk needs.
    "libBlameOwner.so": ["-shared", "-DFIXTURE_BLAME_OWNER", "-fno-omit-frame-pointer"],
    "libBlameThread.so": ["-shared", "-DFIXTURE_BLAME_THREAD", "-pthread", "-fno-omit-frame-pointer"],
    "libBlameCaller.so": ["-shared", "-DFIXTURE_BLAME_CALLER", "-fno-omit-frame-pointer"],
    "libEntryOverflow.so": ["-shared", "-DFIXTURE_ENTRY_OVERFLOW", "-fno-omit-frame-pointer"],
    // What must never run, refused before dlopen: a library
    // without an entry point whose constructor crashes, an executable
    // stack, a writable and executable segment, a library marked not to be
    // opened. Each is otherwise a plugin with a descriptor.
    "libNoEntryCrash.so": ["-shared", "-DFIXTURE_NO_ENTRY", "-DFIXTURE_CONSTRUCTOR_CRASH"],
    "libExecStack.so": ["-shared", "-DFIXTURE_DESCRIPTOR", "-Wl,-z,execstack"]
      + descriptor(name: "ExecStack"),
    "libWritableCode.so": ["-shared", "-DFIXTURE_DESCRIPTOR", "-DFIXTURE_WRITABLE_CODE"]
      + descriptor(name: "WritableCode"),
    "libNoOpen.so": ["-shared", "-DFIXTURE_DESCRIPTOR", "-Wl,-z,nodlopen"] + descriptor(name: "NoOpen"),
    // Run paths whose libraries nobody vetted: an empty entry and a
    // relative one (both the current directory's), and a build folder
    // outside the plugin roots that does not exist.
    "libEmptyRunPath.so": ["-shared", "-DFIXTURE_DESCRIPTOR", "-Wl,-rpath,$ORIGIN:"]
      + descriptor(name: "EmptyRunPath"),
    "libRelativeRunPath.so": ["-shared", "-DFIXTURE_DESCRIPTOR", "-Wl,-rpath,lib"]
      + descriptor(name: "RelativeRunPath"),
    "libBuildRunPath.so": ["-shared", "-DFIXTURE_DESCRIPTOR", "-Wl,-rpath,/tmp/plugboard-gone-build/lib"]
      + descriptor(name: "BuildRunPath"),
    // A run path longer than plugboard reads, which glibc still follows.
    "libLongRunPath.so": [
      "-shared", "-DFIXTURE_DESCRIPTOR", "-Wl,-rpath,/" + String(repeating: "a", count: 5000),
    ]
      + descriptor(name: "LongRunPath"),
    // Plugin code that takes what plugboard reports with: standard error
    // pointed at /dev/null, and SIGPIPE's default action restored before a
    // write to a pipe nobody reads.
    "libSilenceStderr.so": ["-shared", "-DFIXTURE_SILENCE_STDERR"],
    "libOwnSigpipe.so": ["-shared", "-DFIXTURE_OWN_SIGPIPE"],
    // Reports the descriptors it finds open that plugboard inherited.
    "libReportDescriptors.so": ["-shared", "-DFIXTURE_REPORT_FDS"],
    // A relocatable object: ELF, but not a shared library.
    "libObject.so": ["-c", "-DFIXTURE_NO_ENTRY"],
  ]

  /// The folder holding every compiled variant, plus `libText.so` (a text
  /// file), or why compiling failed. It sits in this build's scratch folder
  /// and is made afresh by each test run.
  static let directory: Result<String, Failure> = {
    do {
      let folder = URL(fileURLWithPath: BuildProducts.directory + "/../../plugboard-tests-fixtures")
        .standardizedFileURL.path
      try? FileManager.default.removeItem(atPath: folder)
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      let source = BuildProducts.packageRoot + "/Tests/Fixtures/fixture_plugin.c"
      let include = BuildProducts.packageRoot + "/Kit/Sources/PlugboardABI/include"
      guard let compiler = Toolchain.cCompiler else {
        return .failure(noCompiler)
      }
      for (name, flags) in variants.sorted(by: { $0.key < $1.key }) {
        let result = try Subprocess.run(
          compiler, ["-fPIC", "-I", include, "-o", folder + "/" + name, source] + flags)
        guard result.exited, result.status == 0 else {
          return .failure(Failure(description: "\(compiler) failed for \(name):\n\(result.stderr)"))
        }
      }
      try "this is not a shared library\n".write(
        toFile: folder + "/libText.so", atomically: true, encoding: .utf8)
      return .success(folder)
    } catch {
      return .failure(Failure(description: "cannot compile the C fixtures: \(error)"))
    }
  }()

  private static let noCompiler = Failure(
    description: "no C compiler: no clang beside swiftc, and no clang or cc on PATH")

  /// `Tests/Fixtures/late_close_preload.c`, compiled beside the variants:
  /// a library for `LD_PRELOAD` that holds a supervised child's main
  /// thread where `dispatch_main` closes the main queue's eventfd (see
  /// there). Its path, or why compiling failed.
  static let lateClosePreload = library("late_close_preload", flags: ["-ldl", "-pthread"])

  /// `Tests/Fixtures/folder_swap_preload.c`, compiled beside the
  /// variants: a library for `LD_PRELOAD` that exchanges two folders the
  /// first time the process opens one of them as a folder (see there).
  static let folderSwapPreload = library("folder_swap_preload", flags: ["-ldl"])

  /// `Tests/Fixtures/event_loop_fixture.c`, compiled beside the variants:
  /// makes an event loop's descriptors in the process that opens it.
  static let eventLoopFixture = library("event_loop_fixture")

  /// `Tests/Fixtures/<source>.c` compiled into `lib<source>.so` in the
  /// fixtures' folder: its path, or why compiling failed.
  private static func library(_ source: String, flags: [String] = []) -> Result<String, Failure> {
    do {
      let folder = try directory.get()
      guard let compiler = Toolchain.cCompiler else {
        return .failure(noCompiler)
      }
      let library = folder + "/lib\(source).so"
      let file = BuildProducts.packageRoot + "/Tests/Fixtures/\(source).c"
      let result = try Subprocess.run(compiler, ["-shared", "-fPIC", "-o", library, file] + flags)
      guard result.exited, result.status == 0 else {
        return .failure(Failure(description: "\(compiler) failed for \(library):\n\(result.stderr)"))
      }
      return .success(library)
    } catch let failure as Failure {
      return .failure(failure)
    } catch {
      return .failure(Failure(description: "cannot compile \(source).c: \(error)"))
    }
  }

  static func descriptor(
    name: String, swift: String = PlugboardBuild.compilerVersion,
    kit: String = PlugboardBuild.loadedKitVersion
  ) -> [String] {
    [#"-DFIXTURE_NAME="\#(name)""#, #"-DFIXTURE_SWIFT="\#(swift)""#, #"-DFIXTURE_KIT="\#(kit)""#]
  }
}

extension CFixtures {
  /// A deployment in a fresh folder: the built plugins `before`, then the
  /// variant `lib<fixture>.so` copied beside the manifest (`optional` when
  /// asked), with the manifest members `extras` (each followed by a comma).
  /// Returns the folder (removed when released), the manifest and the
  /// fixture's file.
  static func deployment(
    _ fixture: String, optional: Bool = false, before: [String] = [], extras: String = ""
  ) throws -> (folder: TemporaryDirectory, manifest: String, file: String) {
    let folder = try TemporaryDirectory()
    let file = folder.path + "/lib\(fixture).so"
    try FileManager.default.copyItem(atPath: try directory.get() + "/lib\(fixture).so", toPath: file)
    let listed = before.map { #"{ "name": "\#($0)", "path": "\#(BuildProducts.library($0))" }"# }
    let entry = #"{ "name": "\#(fixture)", "path": "lib\#(fixture).so", "optional": \#(optional) }"#
    let manifest = try folder.write(
      "plugins.json",
      #"{ "formatVersion": 1, \#(BuildProducts.rootsMember) \#(extras) "plugins": [ "#
        + (listed + [entry]).joined(separator: ", ") + " ] }")
    return (folder, manifest, file)
  }
}
