import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// The process that reports is not the one plugin code runs in, so what
/// plugin code does to that process (its descriptors 1 and 2, its signal
/// dispositions) cannot take plugboard's report with it: a plugin that
/// points standard error elsewhere is reported where plugboard's standard
/// error goes, and a plugin that dies of its own SIGPIPE is told apart from
/// a reader of plugboard's output that went away.
@Suite(.serialized, .blocking) struct ReportsOutlivePluginCodeTests {
  static let fix = #"fix the plugin, or set "enabled": false in the manifest to deploy without it"#

  /// The report of `fixture`, whose entry returns NULL, as `command` gives
  /// it: its lines (standard error's; standard output's for `check`, which
  /// reports a plugin's failure as a finding there), with the fixture's
  /// name, file and folder written `<plugin>`, `<file>` and `<folder>`,
  /// and the status.
  private func report(_ fixture: String, _ command: String) throws -> (lines: [String], status: Int32) {
    let (folder, manifest, file) = try CFixtures.deployment(fixture)
    defer { withExtendedLifetime(folder) {} }
    let result = try Subprocess.plugboard([command, "--manifest", manifest])
    #expect(result.exited, "\(fixture) \(command): killed by signal \(result.status)")
    let lines = command == "check" ? result.stdoutLines : result.stderrLines
    let placeholders = [(file, "<file>"), (folder.path, "<folder>"), (fixture, "<plugin>")]
    let masked = lines.map { line in
      placeholders.reduce(line) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }
    return (masked, result.status)
  }

  /// A constructor points descriptor 2 at /dev/null, then the entry point
  /// returns NULL: every command reports it as it reports a plugin whose
  /// entry returns NULL and leaves standard error alone, on plugboard's
  /// standard error (standard output for `check`), with the same status.
  @Test(arguments: ["run", "list", "check"])
  func aPluginThatSilencesStandardErrorIsStillReported(_ command: String) throws {
    let silenced = try report("SilenceStderr", command)
    let plain = try report("NullEntry", command)
    #expect(silenced.status == (command == "run" ? 78 : 1))
    #expect(silenced.status == plain.status)
    #expect(silenced.lines == plain.lines)
    let expected =
      "find entry: plugin '<plugin>' (<file>) returned NULL from plugboard_entry_v1; expected a pointer to its "
      + "plugboard_plugin_v1 descriptor"
    #expect(silenced.lines.contains { $0.contains(expected) }, "\(silenced.lines)")
  }

  /// The same plugin beside one that closes descriptors 3–1023 (where the
  /// limit puts plugboard's own copy of standard error): plugboard takes
  /// standard error back from its supervising process.
  @Test func aPluginThatClosesPlugboardsCopyOfStandardErrorLosesNoReport() throws {
    let folder = try TemporaryDirectory()
    let fixtures = try CFixtures.directory.get()
    for name in ["CloseDescriptors", "SilenceStderr"] {
      try FileManager.default.copyItem(
        atPath: fixtures + "/lib\(name).so", toPath: folder.path + "/lib\(name).so")
    }
    let manifest = try folder.writeManifest([
      ("CloseDescriptors", "libCloseDescriptors.so"), ("SilenceStderr", "libSilenceStderr.so"),
    ])
    let result = try Subprocess.run(
      "/bin/sh",
      ["-c", #"ulimit -n 1024 && exec "$0" "$@""#, BuildProducts.plugboard, "list", "--manifest", manifest])
    #expect(result.exited && result.status == 1)
    for name in ["CloseDescriptors", "SilenceStderr"] {
      #expect(
        result.stderrLines.contains(
          "plugboard: find entry: plugin '\(name)' (\(folder.path)/lib\(name).so) returned NULL from "
            + "plugboard_entry_v1; expected a pointer to its plugboard_plugin_v1 descriptor"),
        "\(result.stderr)")
    }
  }

  /// A constructor gives SIGPIPE its default action back and writes to a
  /// pipe of its own that nobody reads: plugboard's output is fine, so the
  /// plugin is blamed like one that crashed, set aside, and `list --json`
  /// still prints its JSON.
  @Test func aPluginsOwnSIGPIPEIsBlamedOnIt() throws {
    let (folder, manifest, file) = try CFixtures.deployment("OwnSigpipe", before: ["Healthy"])
    defer { withExtendedLifetime(folder) {} }
    let result = try Subprocess.plugboard(["list", "--json", "--manifest", manifest])
    #expect(result.exited && result.status == 1, "killed: \(!result.exited), status \(result.status)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
    let plugins = json["plugins"] as? [[String: Any]] ?? []
    #expect(plugins.map { $0["name"] as? String } == ["Healthy", "OwnSigpipe"])
    #expect(
      result.stderrLines == [
        "plugboard: open: plugin 'OwnSigpipe' (\(file)) died of SIGPIPE (a write to a pipe nobody reads) while "
          + "being opened (in its library initialisers), with plugboard's own output still open: plugin code "
          + "gave SIGPIPE back its default action, which plugboard ignores — \(Self.fix)"
      ])
  }

  /// `run` refuses the deployment with its usual status, naming the plugin.
  @Test func runReportsAPluginsOwnSIGPIPE() throws {
    let (folder, manifest, file) = try CFixtures.deployment("OwnSigpipe")
    defer { withExtendedLifetime(folder) {} }
    let result = try Subprocess.plugboard(["run", "--manifest", manifest])
    #expect(result.exited && result.status == 78, "killed: \(!result.exited), status \(result.status)")
    #expect(
      result.stderrLines.first
        == "plugboard: open: plugin 'OwnSigpipe' (\(file)) died of SIGPIPE (a write to a pipe nobody reads) "
        + "while being opened (in its library initialisers), with plugboard's own output still open: plugin "
        + "code gave SIGPIPE back its default action, which plugboard ignores — \(Self.fix)")
  }

  /// The same plugin, with plugboard's standard output a pipe whose reader
  /// is gone before plugboard starts: the SIGPIPE is the reader's doing, as
  /// far as plugboard can tell, and plugboard ends by it without a word, as
  /// it always did for a reader that went away.
  @Test func aSIGPIPEWithTheReaderGoneStaysQuiet() throws {
    let (folder, manifest, _) = try CFixtures.deployment("OwnSigpipe")
    defer { withExtendedLifetime(folder) {} }
    // A FIFO opened for reading and writing, then for writing, then the
    // first closed: a write end with no reader, with no race.
    let fifo = folder.path + "/output"
    let script = #"""
      mkfifo "$1" && exec 3<>"$1" 4>"$1" 3<&- && exec "$0" list --json --manifest "$2" >&4 4>&-
      """#
    let result = try Subprocess.run("/bin/bash", ["-c", script, BuildProducts.plugboard, fifo, manifest])
    #expect(!result.exited && result.status == SIGPIPE, "exited: \(result.exited), status \(result.status)")
    #expect(result.stderr == "")
  }
}
