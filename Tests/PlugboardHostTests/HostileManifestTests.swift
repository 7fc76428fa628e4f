import PlugboardKit
import Testing

@testable import PlugboardHost

/// Manifests built to cost more than their size (issue 11, "Time and
/// memory"). Each test reads one big enough that a quadratic step would
/// take many minutes, under a time limit a linear one meets by far more
/// than the machine's noise; `plugboard-bench --only hostile` times them.
@Suite struct HostileManifestTests {
  private func read(_ text: String) -> Result<Manifest, ManifestError> {
    ManifestReader.decode(Array(text.utf8), path: "/m/plugins.json")
  }

  private func problems(_ text: String) -> [String] {
    guard case .failure(let error) = read(text) else { return [] }
    return error.lines.map { String($0.dropFirst("/m/plugins.json: ".count)) }
  }

  /// A string of 4 MB of escapes: 33 s for 1.6 MB when each escape copied
  /// the string read so far.
  @Test(.timeLimit(.minutes(1))) func readsManyEscapesInLinearTime() throws {
    let name = String(repeating: #"ab\"\u00e9"#, count: 400_000)
    let text = #"{"formatVersion": 1, "plugins": [{"name": ""# + name + #"", "path": "x.so"}]}"#
    let manifest = try read(text).get()
    #expect(manifest.plugins.first?.name == String(repeating: "ab\"é", count: 400_000))
  }

  /// A 10 MB unknown key: named by its start and length, and costing no
  /// edit distance.
  @Test(.timeLimit(.minutes(1))) func quotesTheStartOfAHugeUnknownKey() {
    let key = String(repeating: "k", count: 10_000_000)
    let expected = String(repeating: "k", count: 64) + "…(10000000 bytes)"
    #expect(
      problems(#"{"formatVersion": 1, "plugins": [], ""# + key + #"": 1}"#) == [
        expected
          + #": unknown key; expected one of "$schema", "formatVersion", "activeProfile", "profiles", "#
          + #""requirePins", "pluginRoots", "stageTimeout", "plugins", "logLevel", "pluginFolders", "hookTimeout""#
      ])
  }

  /// 30,000 declared profiles, each used by a plugin: 222 s when each use
  /// searched the list of declared names.
  @Test(.timeLimit(.minutes(1))) func readsTensOfThousandsOfProfiles() throws {
    let manifest = try read(Self.profiles(30_000, using: { "p\($0)" })).get()
    #expect(manifest.profiles.count == 30_000)
    #expect(manifest.plugins.last?.profiles == ProfileCondition(["p29999"]))
  }

  /// 10,000 misspelt profile names among 10,000 declared: 784 s to report
  /// every one with a did-you-mean and the whole list of names. The first
  /// 100 problems are described, with at most ten declared names each; the
  /// rest are counted.
  @Test(.timeLimit(.minutes(1))) func boundsTheReportOfManyMisspeltProfiles() {
    let lines = problems(Self.profiles(10_000, using: { $0 == 0 ? "p0x" : "q\($0)z" }))
    #expect(lines.count == ManifestDecoder.reportedProblemLimit + 1)
    #expect(
      lines.first
        == "plugins[0].profiles[0]: no profile 'p0x' is declared; did you mean 'p0'?")
    #expect(
      lines[99]
        == "plugins[99].profiles[0]: no profile 'q99z' is declared; declared: 'p0', 'p1', 'p2', 'p3', "
        + "'p4', 'p5', 'p6', 'p7', 'p8', 'p9' and 9990 more")
    #expect(
      lines.last
        == "(top level): 9900 more problems not listed (plugboard lists the first 100); fix these and "
        + "read the manifest again")
  }

  /// A syntax error at the end of a 50 MB line: 24 s and 412 MB to place
  /// when the line was copied into a `String` to count its characters.
  @Test(.timeLimit(.minutes(1))) func placesAnErrorAtTheEndOfAHugeLine() {
    let text =
      #"{"formatVersion": 1, "plugins": [], "x": ""# + String(repeating: "é", count: 25_000_000) + #"" x"#
    guard case .failure(.syntax(_, let error)) = read(text) else {
      Issue.record("not refused as a syntax error")
      return
    }
    #expect(
      error
        == JSONSyntaxError(line: 1, column: 25_000_045, message: "expected ',' or '}' after an object member")
    )
  }

  /// `count` declared profiles, and as many plugins, the n-th naming
  /// `name(n)` as its profile.
  static func profiles(_ count: Int, using name: (Int) -> String) -> String {
    let declared = (0..<count).map { #""p\#($0)": {}"# }.joined(separator: ",")
    let plugins = (0..<count).map { #"{"name": "n\#($0)", "path": "x.so", "profiles": ["\#(name($0))"]}"# }
    return #"{"formatVersion": 1, "activeProfile": "p0", "profiles": {\#(declared)}, "#
      + #""plugins": [\#(plugins.joined(separator: ","))]}"#
  }
}
