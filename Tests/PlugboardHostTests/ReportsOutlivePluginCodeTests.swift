import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// The process that reports is not the one plugin code runs in, so what
/// plugin code does to that process (its descriptors 1 and 2, its signal
/// dispositions) cannot take plugboard's report with it: a plugin that
/// points standard error elsewhere is reported where plugboard's standard
/// error goes.
@Suite(.serialized, .blocking) struct ReportsOutlivePluginCodeTests {
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
}
