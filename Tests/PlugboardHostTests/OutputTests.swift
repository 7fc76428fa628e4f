import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// What plugboard writes arrives, or plugboard says it did not: it never
/// dies of a write (standard error closed, full, or a reader gone), a full
/// standard output fails the command, a plugin's own printing stays out of
/// machine-readable output, and diagnostics never overtake output printed
/// before them.
@Suite(.blocking) struct OutputTests {
  /// Runs `script` with `sh -c`, `plugboard` being `$0`.
  private func shell(_ script: String, _ arguments: [String] = []) throws -> ProcessResult {
    try Subprocess.run("/bin/sh", ["-c", script, BuildProducts.plugboard] + arguments)
  }

  /// A deployment of one built plugin, copied beside its manifest.
  private func deployment(_ product: String) throws -> (TemporaryDirectory, String) {
    let folder = try TemporaryDirectory()
    try FileManager.default.copyItem(
      atPath: BuildProducts.library(product), toPath: folder.path + "/lib\(product).so")
    return (folder, try folder.writeManifest([(product, "lib\(product).so")]))
  }

  @Test(arguments: ["2>&-", "2>/dev/full"])
  func aMisuseWithStandardErrorUnusableStillExitsTwo(_ redirection: String) throws {
    let result = try shell(#""$0" frob \#(redirection)"#)
    #expect(result.exited)
    #expect(result.status == 2)
  }

  @Test(arguments: [["list"], ["list", "--json"], ["graph", "--format", "json"], ["check"]])
  func aFullStandardOutputFailsTheCommand(_ command: [String]) throws {
    let (folder, manifest) = try deployment("Healthy")
    defer { withExtendedLifetime(folder) {} }
    let result = try shell(#""$0" "$@" --manifest "\#(manifest)" > /dev/full"#, command)
    #expect(result.exited)
    #expect(result.status == 1)
    #expect(
      result.stderrLines == [
        "plugboard: \(command[0]): cannot write to standard output: No space left on device"
      ])
  }

  /// The application returned 0, but what it printed was lost.
  @Test func runWithAFullStandardOutputFails() throws {
    let (folder, manifest) = try deployment("Healthy")
    defer { withExtendedLifetime(folder) {} }
    let result = try shell(#""$0" run --manifest "\#(manifest)" > /dev/full"#)
    #expect(result.exited)
    #expect(result.status == 1)
    #expect(
      result.stderrLines == ["plugboard: run: cannot write to standard output: No space left on device"])
  }

  @Test func aClosedStandardOutputFailsTheCommand() throws {
    let result = try shell(#""$0" --version >&-"#)
    #expect(result.exited)
    #expect(result.status == 1)
    #expect(result.stderrLines == ["plugboard: cannot write to standard output: standard output is closed"])
  }

  /// Thousands of diagnostics into a pipe whose reader left after one line.
  @Test func aReaderThatLeavesEarlyDoesNotKillPlugboard() throws {
    let folder = try TemporaryDirectory()
    let manifest = try folder.writeManifest((0..<2000).map { ("Gone\($0)", "libGone\($0).so") })
    let result = try Subprocess.run(
      "/bin/bash",
      [
        "-c", #""$0" list --manifest "$1" 2>&1 | head -1; exit "${PIPESTATUS[0]}""#, BuildProducts.plugboard,
        manifest,
      ])
    #expect(result.exited)
    #expect(result.status == 1)
    #expect(result.stdout.hasPrefix("Deployment \(manifest)"))
  }

  /// A plugin printing while it registers: its lines go to standard error,
  /// and every JSON output stays JSON.
  @Test(arguments: [["list", "--json"], ["graph", "--format", "json"], ["check", "--json"]])
  func whatAPluginPrintsWhileLoadingStaysOutOfJSON(_ command: [String]) throws {
    let (folder, manifest) = try deployment("Chatty")
    defer { withExtendedLifetime(folder) {} }
    let result = try Subprocess.plugboard(command + ["--manifest", manifest])
    #expect(result.exited)
    #expect(result.status == 0)
    #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) }
    #expect(result.stderrLines == ["Chatty is registering", "Chatty is loaded"])
  }

  /// `run`: loading chatter on standard error, the application's own
  /// output on standard output.
  @Test func runKeepsPluginChatterOffTheApplicationsOutput() throws {
    let (folder, manifest) = try deployment("Chatty")
    defer { withExtendedLifetime(folder) {} }
    let result = try Subprocess.plugboard(["run", "--manifest", manifest])
    #expect(result.status == 0)
    #expect(result.stdout == "Chatty is running\n")
    #expect(result.stderrLines == ["Chatty is registering", "Chatty is loaded"])
  }

  /// Into one pipe, the application's earlier line comes before plugboard's
  /// report of its failure.
  @Test func aDiagnosticNeverOvertakesEarlierOutput() throws {
    let (folder, manifest) = try deployment("Healthy")
    defer { withExtendedLifetime(folder) {} }
    let result = try shell(#""$0" run --manifest "\#(manifest)" -- throw 2>&1 | cat"#)
    #expect(
      result.stdout
        == "Healthy is running\nplugboard: run: the application failed: Healthy failed on purpose\n")
  }
}

/// Text from manifests and plugins reaches a terminal escaped, and JSON
/// stays exact JSON.
@Suite(.blocking) struct SanitizedOutputTests {
  @Test func controlCharactersAreEscapedOnTheWayOut() throws {
    let result = try Subprocess.plugboard(["fr\u{1B}[31mob\rplugboard: check: all good"])
    #expect(result.status == 2)
    #expect(
      result.stderrLines.first
        == #"plugboard: unknown command 'fr\u{1B}[31mob\u{D}plugboard: check: all good'; expected one of "#
        + "'run', 'reload', 'list', 'check', 'explain', 'graph', 'pin', 'verify', 'new', 'completion'")
    #expect(!result.stderr.unicodeScalars.contains { Terminal.isControl($0) && $0 != "\n" })
  }

  @Test func aProfileNameFromTheCommandLineCannotForgeALine() throws {
    let folder = try TemporaryDirectory()
    let manifest = try folder.writeManifest([])
    let result = try Subprocess.plugboard([
      "list", "--manifest", manifest, "--profile", "x\nplugboard: all good",
    ])
    #expect(result.status == 2)
    #expect(
      result.stderrLines.first
        == #"plugboard: --profile x\u{A}plugboard: all good: no profile 'x\u{A}plugboard: all good' is declared in "#
        + "\(manifest); the manifest declares no profiles")
  }

  @Test func sanitizingKeepsLineBreaksOnlyWhenAsked() {
    #expect(Terminal.sanitize("a\nb\u{1B}c\u{9B}") == #"a\u{A}b\u{1B}c\u{9B}"#)
    #expect(Terminal.sanitize("a\nb\u{1B}c\u{7F}", keepingLineBreaks: true) == "a\n" + #"b\u{1B}c\u{7F}"#)
  }

  @Test func jsonEscapesEveryControlCharacterAndReadsBackTheSame() throws {
    let value = ["name": "a\u{7F}b\u{9B}c\u{1B}d\ne"]
    let text = JSONText.encode(value)
    #expect(!text.unicodeScalars.contains { Terminal.isControl($0) && $0 != "\n" })
    #expect(text.contains(#""a\u007Fb\u009Bc\u001bd\ne""#))
    #expect(
      try JSONParser.parse(Array(text.utf8))
        == .object([JSONMember(key: "name", value: .string(value["name"] ?? ""))]))
  }
}
