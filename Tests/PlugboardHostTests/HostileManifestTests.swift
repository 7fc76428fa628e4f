import PlugboardKit
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// Manifests built to cost more than their size. Each test reads one big
/// enough that a step quadratic in its size would take minutes of
/// processor time, and bounds the processor time the reading takes (not
/// the wall clock, which a busy machine stretches): generous for the
/// linear reading (at most 9 s in a debug build here), far below the
/// quadratic ones each test names (200 s and more). A suite-wide time
/// limit only stops a reading that never ends. `plugboard-bench --only
/// hostile` times them.
@Suite(.blocking, .timeLimit(.minutes(10))) struct HostileManifestTests {
  /// The processor time a reading may take.
  static let budget = Duration.seconds(60)

  private func read(_ text: String) -> Result<Manifest, ManifestError> {
    let bytes = Array(text.utf8)
    let (result, spent) = ProcessorTime.measure { ManifestReader.decode(bytes, path: "/m/plugins.json") }
    #expect(spent < Self.budget, "reading \(bytes.count) bytes took \(spent) of processor time")
    return result
  }

  private func problems(_ text: String) -> [String] {
    guard case .failure(let error) = read(text) else { return [] }
    return error.lines.map { String($0.dropFirst("/m/plugins.json: ".count)) }
  }

  /// A string of 4 MB of escapes: 33 s for 1.6 MB when each escape copied
  /// the string read so far.
  @Test func readsManyEscapesInLinearTime() throws {
    let name = String(repeating: #"ab\"\u00e9"#, count: 400_000)
    let text = #"{"formatVersion": 1, "plugins": [{"name": ""# + name + #"", "path": "x.so"}]}"#
    let manifest = try read(text).get()
    #expect(manifest.plugins.first?.name == String(repeating: "ab\"é", count: 400_000))
  }

  /// A 10 MB unknown key: named by its start and length, and costing no
  /// edit distance.
  @Test func quotesTheStartOfAHugeUnknownKey() {
    let key = String(repeating: "k", count: 10_000_000)
    let expected = String(repeating: "k", count: 64) + "…(10000000 bytes)"
    #expect(
      problems(#"{"formatVersion": 1, "plugins": [], ""# + key + #"": 1}"#) == [
        expected
          + #": unknown key; expected one of "$schema", "formatVersion", "activeProfile", "profiles", "#
          + #""requirePins", "pluginRoots", "stageTimeout", "plugins", "logLevel", "pluginFolders", "hookTimeout", "#
          + #""exitTimeout", "libraryPins", "contributions", "decorators", "trust""#
      ])
  }

  /// 30,000 declared profiles, each used by a plugin: 222 s when each use
  /// searched the list of declared names.
  @Test func readsTensOfThousandsOfProfiles() throws {
    let manifest = try read(Self.profiles(30_000, using: { "p\($0)" })).get()
    #expect(manifest.profiles.count == 30_000)
    #expect(manifest.plugins.last?.profiles == ProfileCondition(["p29999"]))
  }

  /// 10,000 misspelt profile names among 10,000 declared: 784 s to report
  /// every one with a did-you-mean and the whole list of names. The first
  /// 100 problems are described, with at most ten declared names each; the
  /// rest are counted.
  @Test func boundsTheReportOfManyMisspeltProfiles() {
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
  @Test func placesAnErrorAtTheEndOfAHugeLine() {
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

  // MARK: Many problems past the listed ones

  /// The recipe the fuzzer found (`.ci/run` timed out on it): a manifest
  /// of a quarter of a million misspelt top-level keys took 54 s under the
  /// fuzzer and 35 s in `plugboard check`, because each key past the 100
  /// listed still got a did-you-mean. Magnified to 8 MiB here, twice
  /// the fuzzer's largest, so that a did-you-mean per problem takes
  /// minutes in the tests' debug build.
  @Test func countsAQuarterMillionUnknownTopLevelKeysWithoutDescribingThem() {
    let (lines, repetitions) = problems(
      ManifestRecipe(
        head: #"{"formatVersion":1,"plugins":[],""#, middle: #"matVersion":0,"klugpins":[],""#,
        tail: #"x":1}"#))
    #expect(lines.count == ManifestDecoder.reportedProblemLimit + 1)
    #expect(lines[0] == #"matVersion: unknown key; did you mean "formatVersion"?"#)
    #expect(lines[1] == #"klugpins: unknown key; did you mean "plugins"?"#)
    #expect(lines.last == Self.notListed(2 * repetitions + 1))
  }

  /// The mechanism behind the bound, counted rather than timed: a problem
  /// past the listed ones has neither its path nor its message built.
  @Test func buildsNoPathOrMessageForAProblemPastTheLimit() {
    var decoder = ManifestDecoder()
    var built = 0
    for index in 0..<1_000 {
      decoder.report(
        {
          built += 1; return ManifestPath.root.index(index)
        }(),
        {
          built += 1; return "problem \(index)"
        }())
    }
    #expect(built == 2 * ManifestDecoder.reportedProblemLimit)
    #expect(decoder.problems.listed.count == ManifestDecoder.reportedProblemLimit)
    #expect(decoder.problems.unlisted == 1_000 - ManifestDecoder.reportedProblemLimit)
  }

  /// The same shape inside a plugin entry.
  @Test func countsUnknownKeysOfAPluginEntryWithoutDescribingThem() {
    let (lines, repetitions) = problems(
      ManifestRecipe(
        head: #"{"formatVersion":1,"plugins":[{"name":"a","path":"a.so","#, middle: #""nmae":1,"#,
        tail: #""x":1}]}"#))
    #expect(lines.count == ManifestDecoder.reportedProblemLimit + 1)
    #expect(lines[0] == #"plugins[0].nmae: unknown key; did you mean "name"?"#)
    #expect(lines.last == Self.notListed(repetitions + 1))
  }

  /// The same shape inside a profile.
  @Test func countsUnknownKeysOfAProfileWithoutDescribingThem() {
    let (lines, repetitions) = problems(
      ManifestRecipe(
        head: #"{"formatVersion":1,"activeProfile":"p","profiles":{"p":{"#, middle: #""servces":{},"#,
        tail: #""x":1}},"plugins":[]}"#))
    #expect(lines.count == ManifestDecoder.reportedProblemLimit + 1)
    #expect(lines[0] == #"profiles.p.servces: unknown key; did you mean "services"?"#)
    #expect(lines.last == Self.notListed(repetitions + 1))
  }

  /// A profile's `config` naming a quarter of a million plugins nobody
  /// lists, each close to one that is.
  @Test func countsUnknownPluginsOfAProfileConfigWithoutDescribingThem() {
    let (lines, repetitions) = problems(
      ManifestRecipe(
        head: #"{"formatVersion":1,"activeProfile":"p","profiles":{"p":{"config":{"#,
        middle: #""Weathe\#u{1}":{},"#, tail: #""x":{}}}},"plugins":[{"name":"Weather","path":"w.so"}]}"#))
    #expect(lines.count == ManifestDecoder.reportedProblemLimit + 1)
    #expect(lines[0] == #"profiles.p.config.Weathe0: no plugin is called "Weathe0"; did you mean "Weather"?"#)
    #expect(lines.last == Self.notListed(repetitions + 1))
  }

  /// Past a few thousand distinct keys an object's repeats are found by
  /// partition, not through one table: a repeat before that point and
  /// repeats after it are each reported once, in written order, and the
  /// count of problems is what one table finds.
  @Test func reportsRepeatedKeysBeforeAndAfterManyDistinctOnes() {
    var members = (0..<6_000).map { #""p\#($0)":{}"# }
    members.insert(#""p4400":{}"#, at: 5_000)
    members.insert(#""p2":{}"#, at: 4_500)
    members.insert(#""p1":{}"#, at: 10)
    let lines = problems(
      #"{"formatVersion":1,"activeProfile":"p","profiles":{"p":{"config":{"#
        + members.joined(separator: ",") + #"}}},"plugins":[{"name":"p0","path":"p.so"}]}"#)
    #expect(
      Array(lines.prefix(4)) == [
        "profiles.p.config.p1: duplicate key; each key may appear once",
        "profiles.p.config.p2: duplicate key; each key may appear once",
        "profiles.p.config.p4400: duplicate key; each key may appear once",
        #"profiles.p.config.p1: no plugin is called "p1"; did you mean "p0"?"#,
      ])
    // Three repeats, and 5,999 names no plugin has.
    #expect(lines.last == Self.notListed(3 + 5_999))
  }

  /// A plugin's `config` block repeating one setting.
  @Test func countsDuplicateKeysOfAConfigBlockWithoutDescribingThem() {
    let (lines, repetitions) = problems(
      ManifestRecipe(
        head: #"{"formatVersion":1,"plugins":[{"name":"a","path":"a.so","config":{"city":"x","#,
        middle: #""city":"y","#, tail: #""c":1}}]}"#))
    #expect(lines.count == ManifestDecoder.reportedProblemLimit + 1)
    #expect(lines[0] == "plugins[0].config.city: duplicate key; each key may appear once")
    #expect(lines.last == Self.notListed(repetitions))
  }

  /// The problems of the recipe's manifest, magnified to 8 MiB, and how
  /// many times its middle was repeated.
  private func problems(_ recipe: ManifestRecipe) -> (lines: [String], repetitions: Int) {
    let (text, repetitions) = recipe.magnified(largest: 8 << 20)
    let (result, spent) = ProcessorTime.measure { ManifestReader.decode(text, path: "/m/plugins.json") }
    #expect(spent < Self.budget, "reading \(text.count) bytes took \(spent) of processor time")
    guard case .failure(let error) = result else {
      Issue.record("the manifest was not refused")
      return ([], repetitions)
    }
    return (error.lines.map { String($0.dropFirst("/m/plugins.json: ".count)) }, repetitions)
  }

  /// The last line of a report of `total` problems.
  private static func notListed(_ total: Int) -> String {
    "(top level): \(total - ManifestDecoder.reportedProblemLimit) more problems not listed (plugboard lists "
      + "the first \(ManifestDecoder.reportedProblemLimit)); fix these and read the manifest again"
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
