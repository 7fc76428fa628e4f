import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// `error:` and `warning:` are coloured for a person at a terminal, and
/// for nobody else.
@Suite(.blocking) struct TerminalOutputTests {
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

  /// A profile name is the manifest's: one holding a line break (itself
  /// a problem) is escaped wherever a message quotes it, so the list of
  /// declared profiles cannot begin a forged line.
  @Test func aProfileNameCannotForgeALineOfAManifestProblem() throws {
    let folder = try TemporaryDirectory()
    let manifest = try folder.write(
      "plugins.json",
      #"{"formatVersion": 1, "plugins": [], "profiles": {"live": {}, "x\nplugboard: all good": {}}}"#)
    let result = try Subprocess.plugboard(["list", "--manifest", manifest])
    #expect(result.exited && result.status == 1 && result.stdout.isEmpty)
    let expected: [String] = [
      "plugboard: read manifest: \(manifest): profiles.x\\u{A}plugboard: all good: the key contains the control "
        + "character \\u000A at character 2; strings in a manifest cannot contain control characters",
      "plugboard: read manifest: \(manifest): (top level): missing required key \"activeProfile\" (the profile "
        + "used when neither --profile nor PLUGBOARD_PROFILE chooses one; declared: 'live', "
        + "'x\\u{A}plugboard: all good')",
    ]
    #expect(result.stderr.split(separator: "\n").map(String.init) == expected)
  }

  /// File names come from the file system: a drop-in library whose name
  /// holds line breaks cannot forge a line of plugboard's output, and a
  /// right-to-left override (Trojan Source) is shown escaped, never acted
  /// on. Such a file is not opened.
  @Test func aFileNameCannotForgeALineOrReorderOne() throws {
    let folder = try TemporaryDirectory()
    let dropIns = folder.path + "/plugins.d"
    try FileManager.default.createDirectory(atPath: dropIns, withIntermediateDirectories: false)
    let fixtures = try CFixtures.directory.get()
    let forged = "lib\u{2026}\nplugboard: check: all good\n.so"
    try FileManager.default.copyItem(atPath: fixtures + "/libCrash.so", toPath: dropIns + "/" + forged)
    try FileManager.default.copyItem(
      atPath: fixtures + "/libCrash.so", toPath: dropIns + "/libRLO\u{202E}evil.so")
    let manifest = try folder.write(
      "plugins.json",
      #"{ "formatVersion": 1, "pluginFolders": ["plugins.d"], "plugins": [] }"#)
    let result = try Subprocess.plugboard(["check", "--manifest", manifest])
    #expect(result.exited && result.status == 1)
    let lines = (result.stdout + result.stderr).split(separator: "\n")
    #expect(!lines.contains { $0.hasPrefix("plugboard: check: all good") })
    #expect(!(result.stdout + result.stderr).unicodeScalars.contains { (0x202A...0x202E).contains($0.value) })
    let shown = "\(dropIns)/lib\u{2026}\\u{A}plugboard: check: all good\\u{A}.so"
    #expect(
      lines.contains {
        $0.trimmingCharacters(in: .whitespaces)
          == "locate: plugin '\u{2026}\\u{A}plugboard: check: all good\\u{A}' (\(shown)) has a control character "
          + "or a bidirectional control in its file name; plugboard does not open it — rename the file"
      }, "\(result.stdout)")
    #expect(
      result.stdout.contains("plugin 'RLO\\u{202E}evil' (\(dropIns)/libRLO\\u{202E}evil.so) has a control"))
  }

  @Test func bidirectionalControlsAreEscaped() {
    #expect(Terminal.sanitize("a\u{202E}b\u{2066}c\u{2069}d") == "a\\u{202E}b\\u{2066}c\\u{2069}d")
    #expect(Terminal.sanitize("x\u{2028}y", keepingLineBreaks: true) == "x\\u{2028}y")
    #expect(Terminal.sanitize("ok \u{2026} \u{05D0}") == "ok \u{2026} \u{05D0}")
  }
}
