import PlugboardTestSupport
import Testing

@testable import PlugboardCLI
@testable import PlugboardEngine

/// Options before the command (`plugboard --manifest x.json list`) mean
/// what they mean after it.
@Suite(.blocking) struct GlobalOptionTests {
  @Test func optionsBeforeTheCommandAreTheCommandsOwn() throws {
    #expect(
      try InvocationParser.parse(["--manifest", "x.json", "list", "--json"])
        == .command(name: "list", options: ParsedOptions(values: ["--manifest": "x.json"], flags: ["--json"]))
    )
    #expect(
      try InvocationParser.parse(["--profile=mock", "--unsupervised", "run", "--", "--user", "ada"])
        == .command(
          name: "run",
          options: ParsedOptions(
            values: ["--profile": "mock"], flags: ["--unsupervised"], passthrough: ["--user", "ada"])))
    #expect(
      try InvocationParser.parse(["--manifest", "x.json", "check", "--help"]) == .help(command: "check"))
    #expect(try InvocationParser.parse(["--manifest", "x.json", "--help"]) == .help(command: nil))
  }

  @Test func anOptionGivenOnBothSidesIsGivenTwice() {
    #expect(throws: UsageError(message: "--manifest given more than once", command: "list")) {
      try InvocationParser.parse(["--manifest", "a.json", "list", "--manifest", "b.json"])
    }
  }

  @Test func theBinaryAcceptsThem() throws {
    let folder = try TemporaryDirectory()
    let manifest = try folder.writeManifest([])
    let before = try Subprocess.plugboard(["--manifest", manifest, "list", "--json"])
    let after = try Subprocess.plugboard(["list", "--json", "--manifest", manifest])
    #expect(before.status == 0)
    #expect(before.stdout == after.stdout && before.stderr == after.stderr)
  }
}
