import Foundation
import PlugboardDigest
import PlugboardKit
import PlugboardTestSupport
import Testing

@testable import PlugboardCLI
@testable import PlugboardEngine

/// The fault corpus: every hostile deployment, under `run`, `list`
/// and `check`, ends with `plugboard` exiting (never killed by a signal),
/// with the documented status and a message naming the plugin, the stage
/// and the fix.
@Suite(.blocking) struct FaultCorpusTests {
  /// A stage timeout shorter than the default (10 s, covered by the
  /// supervision tests) keeps the hanging cases quick, and long enough
  /// that the stages of the plugins that do not hang meet it on a busy
  /// machine.
  static let timeout = ["--stage-timeout", "2"]

  static let fix = #"fix the plugin, or set "enabled": false in the manifest to deploy without it"#
  static let slow =
    #"fix the plugin; if it is only slow, raise "stageTimeout" in the manifest or pass --stage-timeout"#
  static let segv = "SIGSEGV (segmentation fault: a bad memory access)"

  /// The line every command reports for `fault` (without `plugboard: `),
  /// given its deployment.
  static func message(_ fault: FaultCase, _ d: FaultDeployment) -> String? {
    let (file, folder) = (d.file, d.folder)
    switch fault {
    case .missingFile:
      return "locate: plugin 'Gone' (\(file)) does not exist (plugins[0].path is relative to the manifest's "
        + "folder, \(folder))"
    case .folder: return "locate: plugin 'Folder' (\(file)) is a directory; expected a shared library file"
    case .notELF:
      return #"open: plugin 'Text' (\#(file)) is not a shared library: expected an ELF file, found text "#
        + #"starting "this is not a sh""#
    case .emptyFile:
      return
        "open: plugin 'Empty' (\(file)) is not a shared library: expected an ELF file, found an empty file"
    case .truncatedELF:
      return
        "vet: plugin 'Truncated' (\(file)) is truncated: it has 700 bytes, but its loadable segment 1 ends at "
    case .noEntry:
      return
        "find entry: plugin 'NoEntry' (\(file)) does not export plugboard_entry_v1; expected a Plugboard plugin"
    case .nullEntry:
      return
        "find entry: plugin 'NullEntry' (\(file)) returned NULL from plugboard_entry_v1; expected a pointer "
        + "to its plugboard_plugin_v1 descriptor"
    case .entryCrash:
      return "find entry: plugin 'EntryCrash' (\(file)) crashed with \(segv) in libEntryCrash.so+0x… in its "
        + "entry point plugboard_entry_v1 — \(fix)"
    case .entryAbort:
      return "find entry: plugin 'EntryAbort' (\(file)) crashed with SIGABRT (aborted) in its entry point "
        + "plugboard_entry_v1 — \(fix)"
    case .entryHang:
      return
        "find entry: plugin 'EntryHang' (\(file)) was stopped after 2 s in its entry point plugboard_entry_v1: "
        + "it never returned — \(slow)"
    case .constructorCrash:
      return "open: plugin 'Crash' (\(file)) crashed with \(segv) in libCrash.so+0x… while being opened (in "
        + "its library initialisers) — \(fix)"
    case .constructorHang:
      return "open: plugin 'Hang' (\(file)) was stopped after 2 s while being opened (in its library "
        + "initialisers): it never returned — \(slow)"
    case .constructorExit:
      return "open: plugin 'Exit' (\(file)) ended the process with exit status 0 while being opened (in its "
        + "library initialisers); a plugin must never end the host's process — \(fix)"
    case .trappingAssembly:
      return "assemble: plugin 'TrappingAssembly' (\(file)) crashed with SIGILL (a Swift runtime trap: "
        + #""TrappingAssembly/TrappingAssemblyPlugin.swift:14: Fatal error: TrappingAssembly cannot assemble: "#
        + #"configuration missing") in libTrappingAssembly.so+0x… while assembling — \#(fix)"#
    case .trappingFactory: return nil
    case .unresolvedSymbol:
      return
        "open: plugin 'Unresolved' (\(file)) could not be loaded: \(LoaderFailureTests.unresolvedC(file))"
    case .otherABI:
      return
        "check versions: plugin 'ABI2' (\(file)) was built for plugin ABI 2; this host speaks 1 — rebuild "
        + "the plugin against PlugboardKit \(PlugboardBuild.loadedKitVersion): \(RebuildCommand.forLibrary(at: file))"
    case .ownKitCopy:
      return
        "make assemblies: plugin 'OwnKit' (\(file)) returned a PlugboardKit.PluginBundle that is not this host's "
        + "PlugboardKit.PluginBundle: the plugin carries its own copy of PlugboardKit"
    case .worldWritableFile:
      return
        "vet: plugin 'Healthy' (\(file)) is writable by group and others (mode 0777, owner uid \(getuid())); "
        + "anyone who can write it can run code in plugboard — remove the write permission: chmod go-w \(file)"
    case .worldWritableFolder:
      return
        "vet: plugin 'Healthy' (\(file)) lies in the folder \(folder)/shared, which is writable by group "
        + "and others (mode 0777, owner uid \(getuid())); anyone who can write there can replace the plugin — "
        + "chmod go-w \(folder)/shared"
    case .parentEscape:
      return "vet: plugin 'Healthy' (\(file)) lies outside the plugin roots (\(folder)): plugins[0].path "
        + #""../x/lib.so" leads to \#(file) — move it under one of them, or list its folder in the "#
        + #"manifest's "pluginRoots""#
    case .symlinkEscape:
      return "vet: plugin 'Healthy' (\(file)) is reached through the symbolic link \(folder)/libHealthy.so, "
        + "which leads outside the plugin roots (\(folder)) — move it under one of them, or list its folder "
        + #"in the manifest's "pluginRoots""#
    case .symlinkLoop:
      return "locate: plugin 'Loop' (\(file)) is a symbolic link that leads, through other links, back to "
        + "itself (a loop)"
    case .hashMismatch:
      let digest = (try? SHA256.hash(file: file).get().hex) ?? "?"
      return "open: plugin 'Healthy' (\(file)) does not match its pin: plugins[0].sha256 is "
        + String(repeating: "0", count: 64)
        + ", the file's SHA-256 is \(digest) — if the new file is trusted, "
        + "run 'plugboard pin' to refresh the pins"
    case .duplicateName:
      return "read manifest: \(d.manifest): plugins[1].name: \"Healthy\" is already the name of plugins[0]"
    case .libraryListedTwice:
      return
        "locate: plugin 'HealthyAgain' (\(file)) is the same file as plugin 'Healthy'; a library can serve "
        + "one plugin"
    case .threeCrashes:
      return "assemble: plugin 'TrappingAssembly' (\(d.plugins[2].file)) crashed with SIGILL"
    case .truncatedJSON: return "read manifest: \(d.manifest):1:43: not valid JSON: unterminated string"
    case .wrongTypes:
      return "read manifest: \(d.manifest): plugins[0].path: expected a string, found an array"
    case .unknownKeys: return #"read manifest: \#(d.manifest): plugin: unknown key; did you mean "plugins"?"#
    case .hugeManifest: return nil
    case .deepNesting:
      return "read manifest: \(d.manifest):1:545: not valid JSON: nested deeper than 512 levels"
    }
  }

  /// The cases a deployment survives: a factory that traps is plugin code
  /// only `run` executes (a crash plugboard cannot set aside: 70); a 10 MB
  /// manifest is merely large. `run` refuses a broken deployment with 78,
  /// the other commands report it with 1.
  static func status(_ fault: FaultCase, command: String) -> Int32 {
    switch fault {
    case .hugeManifest: 0
    case .trappingFactory: command == "run" ? 70 : 0
    default: command == "run" ? 78 : 1
    }
  }

  @Test(arguments: FaultCase.allCases)
  func everyCommandReportsIt(_ fault: FaultCase) throws {
    let deployment = try FaultCorpus.deployment(fault)
    let expected = Self.message(fault, deployment)
    for command in ["list", "run", "check"] {
      let result = try Subprocess.plugboard([command, "--manifest", deployment.manifest] + Self.timeout)
      #expect(result.exited, "\(command): plugboard was killed by signal \(result.status)")
      #expect(result.status == Self.status(fault, command: command), "\(command)")
      guard let expected else { continue }
      // check reports a plugin's failure as a finding on stdout, and a
      // manifest's problems on stderr, as list and run do.
      let reported =
        command == "check" && !expected.hasPrefix("read manifest")
        ? result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        : result.stderrLines.map { $0.replacingOccurrences(of: "plugboard: ", with: "", options: .anchored) }
      // Where a crash happened is named by library and offset; the offset
      // is the compiler's.
      #expect(
        reported.map(CrashLocation.masked).contains { $0.hasPrefix(expected) },
        "\(command): \(result.stderr)\(result.stdout)")
    }
  }

  /// One `check` names all three plugins that bring the process down, each
  /// with its own stage and signal, and loads what is left.
  @Test func threeCrashingPluginsInOneCheck() throws {
    let deployment = try FaultCorpus.deployment(.threeCrashes)
    let files = deployment.plugins.map(\.file)
    let result = try Subprocess.plugboard(["list", "--manifest", deployment.manifest])
    #expect(result.exited && result.status == 1)
    #expect(
      result.stderrLines.filter { $0.hasPrefix("plugboard: ") }.map(CrashLocation.masked) == [
        "plugboard: open: plugin 'Crash' (\(files[0])) crashed with \(Self.segv) in libCrash.so+0x… while being "
          + "opened (in its library initialisers) — \(Self.fix)",
        "plugboard: find entry: plugin 'EntryCrash' (\(files[1])) crashed with \(Self.segv) in "
          + "libEntryCrash.so+0x… in its entry point plugboard_entry_v1 — \(Self.fix)",
        "plugboard: assemble: plugin 'TrappingAssembly' (\(files[2])) crashed with SIGILL (a Swift runtime trap: "
          + #""TrappingAssembly/TrappingAssemblyPlugin.swift:14: Fatal error: TrappingAssembly cannot assemble: "#
          + #"configuration missing") in libTrappingAssembly.so+0x… while assembling — \#(Self.fix)"#,
      ])
    let check = try Subprocess.plugboard(["check", "--manifest", deployment.manifest, "--json"])
    #expect(check.exited && check.status == 1)
    let object = try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any]
    #expect(object?["errors"] as? Int == 4)  // three plugins, and no Application left
  }
}
