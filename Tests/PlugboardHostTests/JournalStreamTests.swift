import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// Diagnostics on standard error carry syslog priorities when, and only
/// when, `JOURNAL_STREAM` names the file standard error is.
@Suite(.blocking) struct JournalStreamTests {
  /// A missing optional plugin (a warning) and no `Application` (an
  /// error), with `--verbose` stage lines (information).
  @Test func eachLineCarriesItsPriorityOnlyWhenStandardErrorIsTheJournal() throws {
    let folder = try TemporaryDirectory()
    let manifest = try folder.write(
      "plugins.json",
      #"{ "formatVersion": 1, "plugins": [ { "name": "Gone", "path": "libGone.so", "optional": true } ] }"#)
    let warning =
      "plugboard: run: warning: optional plugin 'Gone' is missing, the application runs without it: locate: "
      + "plugin 'Gone' (\(folder.path)/libGone.so) does not exist (plugins[0].path is relative to the "
      + "manifest's folder, \(folder.path))"
    let plain = try Subprocess.plugboard(["run", "--manifest", manifest])
    #expect(plain.status == ExitStatus.runBroken.rawValue)
    #expect(plain.stderrLines.first == warning)
    #expect(
      plain.stderrLines.contains("error: no Application is registered; `plugboard run` has nothing to run"))
    // Another file's identity: no prefixes either.
    let elsewhere = try Subprocess.plugboard(
      ["run", "--manifest", manifest], environment: ["JOURNAL_STREAM": "1:2"])
    #expect(elsewhere.stderr == plain.stderr)

    let journal = try Subprocess.plugboard(["run", "--manifest", manifest], stderrIdentity: "JOURNAL_STREAM")
    #expect(journal.status == plain.status)
    #expect(
      journal.stderrLines
        == plain.stderrLines.enumerated().map { ($0.offset == 0 ? "<4>" : "<3>") + $0.element })

    let verbose = try Subprocess.plugboard(
      ["run", "--manifest", manifest, "--verbose"], stderrIdentity: "JOURNAL_STREAM")
    let stages = verbose.stderrLines.filter { $0.hasPrefix("<6>") }
    #expect(stages.count >= 3)
    #expect(stages.allSatisfy { $0.hasPrefix("<6>plugboard: ") && $0.contains(" took ") })
    #expect(verbose.stderrLines.filter { !$0.hasPrefix("<6>") } == journal.stderrLines)
  }

  /// A value naming another file, or malformed, leaves lines as they are.
  @Test func anotherStreamIsNotTheJournal() {
    #expect(!JournalStream.matches("1:2", descriptor: STDERR_FILENO))
    #expect(!JournalStream.matches("nonsense", descriptor: STDERR_FILENO))
    #expect(!JournalStream.matches(nil, descriptor: STDERR_FILENO))
    var status = stat()
    #expect(fstat(STDERR_FILENO, &status) == 0)
    #expect(JournalStream.matches("\(status.st_dev):\(status.st_ino)", descriptor: STDERR_FILENO))
  }
}
