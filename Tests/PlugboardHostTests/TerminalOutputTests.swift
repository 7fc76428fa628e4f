import Foundation
import Testing

@testable import PlugboardHost

/// `error:` and `warning:` are coloured for a person at a terminal, and
/// for nobody else.
@Suite struct TerminalOutputTests {
  @Test func colourIsOnlyForATerminalWithoutNoColor() {
    #expect(Highlight.enabled(isTerminal: true, noColor: nil))
    #expect(Highlight.enabled(isTerminal: true, noColor: ""))
    #expect(!Highlight.enabled(isTerminal: true, noColor: "1"))
    #expect(!Highlight.enabled(isTerminal: false, noColor: nil))
  }

  @Test func onlyTheLabelBeginningALineIsColoured() {
    #expect(
      Highlight.colour("error: broken\n\nwarning: odd\nnot an error: here")
        == "\u{1B}[1;31merror:\u{1B}[0m broken\n\n\u{1B}[1;33mwarning:\u{1B}[0m odd\nnot an error: here")
    #expect(Highlight.colour("plain") == "plain")
  }

  /// A manifest whose one plugin is missing: `check` reports an error.
  private func brokenManifest(in folder: TemporaryDirectory) throws -> String {
    try folder.writeManifest([(name: "Gone", path: folder.path + "/libGone.so")])
  }

  @Test func aTerminalSeesColour() throws {
    let folder = try TemporaryDirectory()
    let output = try PseudoTerminal.plugboard(["check", "--manifest", try brokenManifest(in: folder)])
    #expect(output.contains("\u{1B}[1;31merror:\u{1B}[0m plugin 'Gone' failed to load\n"))
  }

  @Test func noColorTurnsItOff() throws {
    let folder = try TemporaryDirectory()
    let output = try PseudoTerminal.plugboard(
      ["check", "--manifest", try brokenManifest(in: folder)], environment: ["NO_COLOR": "1"])
    #expect(output.contains("error: plugin 'Gone' failed to load\n"))
    #expect(!output.contains("\u{1B}"))
  }

  @Test func aFileSeesNoColour() throws {
    let folder = try TemporaryDirectory()
    let result = try Subprocess.plugboard(["check", "--manifest", try brokenManifest(in: folder)])
    #expect(result.stdout.contains("error: plugin 'Gone' failed to load\n"))
    #expect(!result.stdout.contains("\u{1B}") && !result.stderr.contains("\u{1B}"))
  }
}
