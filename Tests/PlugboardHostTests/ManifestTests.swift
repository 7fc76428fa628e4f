import Testing

@testable import PlugboardEngine

@Suite struct ManifestTests {
  /// The problems reported for `text`, each rendered as the CLI prints it
  /// after the manifest's path.
  private func problems(_ text: String) throws -> [String] {
    let folder = try TemporaryDirectory()
    let path = try folder.write("plugins.json", text)
    switch ManifestReader.read(path: path, origin: .defaultLocation) {
    case .success: return []
    case .failure(let error):
      return error.lines.map {
        $0.replacingOccurrences(of: path + ": ", with: "").replacingOccurrences(of: path + ":", with: "")
      }
    }
  }

  @Test func readsAValidManifest() throws {
    let folder = try TemporaryDirectory()
    let path = try folder.write(
      "plugins.json",
      #"""
      { "$schema": "./plugins.schema.json", "formatVersion": 1, "plugins": [
        { "name": "Auth", "path": "lib/libAuth.so" },
        { "name": "Old", "path": "/opt/libOld.so", "enabled": false } ] }
      """#)
    let manifest = try ManifestReader.read(path: path, origin: .defaultLocation).get()
    #expect(
      manifest.plugins == [
        PluginEntry(index: 0, name: "Auth", path: "lib/libAuth.so"),
        PluginEntry(index: 1, name: "Old", path: "/opt/libOld.so", enabled: false),
      ])
    #expect(manifest.absolutePath(of: manifest.plugins[0]) == folder.path + "/lib/libAuth.so")
    #expect(manifest.absolutePath(of: manifest.plugins[1]) == "/opt/libOld.so")
  }

  @Test func pointsAtAValueOfTheWrongType() throws {
    let text = #"""
      { "formatVersion": 1, "plugins": [
        { "name": "A", "path": "a.so" }, { "name": "B", "path": "b.so" }, { "name": "C", "path": 3 } ] }
      """#
    #expect(try problems(text) == ["plugins[2].path: expected a string, found a number"])
  }

  @Test func suggestsTheKeyMeantForAnUnknownOne() throws {
    let text = #"{ "formatVersion": 1, "plugins": [ { "name": "A", "pth": "a.so" } ] }"#
    #expect(
      try problems(text) == [
        #"plugins[0].pth: unknown key; did you mean "path"?"#,
        #"plugins[0]: missing required key "path""#,
      ])
  }

  @Test func reportsEveryProblemAtOnce() throws {
    let text = #"""
      { "formatVersion": 2, "plugin": [], "plugins": [
        "Auth", { "name": "", "path": "x.so", "enabled": "yes" },
        { "name": "A", "path": "a.so" }, { "name": "A", "path": "b.so", "sha256": "00" } ],
        "profile": {} }
      """#
    #expect(
      try problems(text) == [
        #"plugin: unknown key; did you mean "plugins"?"#,
        #"profile: unknown key; did you mean "profiles"?"#,
        "formatVersion: this plugboard reads format 1, found 2",
        "plugins[0]: expected an object, found a string",
        "plugins[1].name: expected a non-empty string",
        "plugins[1].enabled: expected a boolean, found a string",
        "plugins[3].sha256: expected 64 hexadecimal digits (a SHA-256 digest, as 'plugboard pin' writes it), "
          + "found 2 digits",
        #"plugins[3].name: "A" is already the name of plugins[2]"#,
      ])
  }

  @Test func requiresTheFormatVersionAndPlugins() throws {
    #expect(
      try problems("{}") == [
        #"(top level): missing required key "formatVersion" (this plugboard reads format 1)"#,
        #"(top level): missing required key "plugins""#,
      ])
    #expect(try problems("[]") == ["(top level): expected an object, found an array"])
    #expect(
      try problems(#"{"formatVersion": "1", "plugins": {}, "x": 1}"#) == [
        #"x: unknown key; expected one of "$schema", "formatVersion", "activeProfile", "profiles", "requirePins", "#
          + #""pluginRoots", "stageTimeout", "plugins", "logLevel", "pluginFolders", "hookTimeout", "exitTimeout", "#
          + #""libraryPins", "contributions", "decorators", "trust""#,
        "formatVersion: expected a number, found a string",
        "plugins: expected an array, found an object",
      ])
  }

  @Test func reportsSyntaxErrorsWithTheirPosition() throws {
    #expect(
      try problems("{\n  \"formatVersion\": 1,\n}") == [
        "3:1: not valid JSON: expected a member name in double quotes"
      ])
  }

  @Test func saysWhereItLookedForAMissingManifest() {
    let result = ManifestReader.read(path: "/nonexistent/plugins.json", origin: .option("x/plugins.json"))
    #expect(
      throws: ManifestError.missing(path: "/nonexistent/plugins.json", origin: .option("x/plugins.json"))
    ) {
      try result.get()
    }
  }
}

/// The keys that say how far plugins are trusted: `sha256`, `requirePins`,
/// `pluginRoots`, `stageTimeout`.
@Suite struct IntegrityManifestTests {
  private static let digest = "3A7BD3E2360A3D29EEA436FCFB7E44C735D117C42D1C1835420B6B9942DD4F1B"
  private static let expectation =
    "expected 64 hexadecimal digits (a SHA-256 digest, as 'plugboard pin' writes it)"

  private func read(_ text: String) throws -> Result<Manifest, ManifestError> {
    let folder = try TemporaryDirectory()
    return ManifestReader.read(path: try folder.write("plugins.json", text), origin: .defaultLocation)
  }

  private func problems(_ text: String) throws -> [String] {
    guard case .failure(.invalid(_, let problems)) = try read(text) else { return [] }
    return problems.map(\.description)
  }

  private func plugin(_ members: String) -> String {
    #"{ "formatVersion": 1, "plugins": [ { "name": "A", "path": "a.so"\#(members) } ] }"#
  }

  private func topLevel(_ members: String) -> String {
    #"{ "formatVersion": 1, \#(members), "plugins": [] }"#
  }

  @Test func readsEveryKeyAndStoresThePinInLowerCase() throws {
    let text = #"""
      { "formatVersion": 1, "requirePins": true, "pluginRoots": ["../build", "/opt/plugins"],
        "stageTimeout": 2.5, "plugins": [ { "name": "A", "path": "a.so", "sha256": "\#(Self.digest)" } ] }
      """#
    let manifest = try read(text).get()
    #expect(manifest.plugins.first?.sha256 == Self.digest.lowercased())
    #expect(manifest.requirePins)
    #expect(manifest.pluginRoots == ["../build", "/opt/plugins"])
    #expect(manifest.stageTimeout == .milliseconds(2500))
  }

  @Test func defaultsWhenTheKeysAreAbsent() throws {
    let manifest = try read(plugin("")).get()
    #expect(manifest.plugins.first?.sha256 == nil)
    #expect(!manifest.requirePins)
    #expect(manifest.pluginRoots.isEmpty)
    #expect(manifest.stageTimeout == nil)
  }

  @Test func refusesAPinThatIsNotADigest() throws {
    #expect(
      try problems(plugin(#", "sha256": 12"#)) == ["plugins[0].sha256: expected a string, found a number"])
    #expect(
      try problems(plugin(#", "sha256": "\#(Self.digest.dropLast())""#)) == [
        "plugins[0].sha256: \(Self.expectation), found 63 digits"
      ])
    #expect(
      try problems(plugin(#", "sha256": "\#(Self.digest)0""#)) == [
        "plugins[0].sha256: \(Self.expectation), found 65 digits"
      ])
    #expect(
      try problems(plugin(#", "sha256": "3a7g""#)) == [
        #"plugins[0].sha256: \#(Self.expectation), found "g" at character 4"#
      ])
    // A full-width digit is a hexadecimal digit to Unicode, not to a pin.
    #expect(
      try problems(plugin(#", "sha256": "\#u{FF11}""#)) == [
        #"plugins[0].sha256: \#(Self.expectation), found "\#u{FF11}" at character 1"#
      ])
  }

  /// `libraryPins`: digests by library path, in written order, in lower
  /// case.
  @Test func readsTheLibraryPins() throws {
    let manifest = try read(
      topLevel(
        #""libraryPins": { "libAppContracts.so": "\#(Self.digest)", "/opt/lib/libX.so": "\#(Self.digest.lowercased())" }"#
      )
    ).get()
    #expect(
      manifest.libraryPins == [
        LibraryPin(path: "libAppContracts.so", sha256: Self.digest.lowercased()),
        LibraryPin(path: "/opt/lib/libX.so", sha256: Self.digest.lowercased()),
      ])
    #expect(try read(plugin("")).get().libraryPins.isEmpty)
  }

  @Test func refusesLibraryPinsThatAreNotDigestsByPath() throws {
    #expect(
      try problems(topLevel(#""libraryPins": ["libA.so"]"#)) == [
        "libraryPins: expected an object, found an array"
      ])
    #expect(
      try problems(
        topLevel(
          #""libraryPins": { "libA.so": 1, "libB.so": "00", "": "\#(Self.digest)", "libA.so": "\#(Self.digest)" }"#
        )
      ) == [
        "libraryPins.libA.so: duplicate key; each key may appear once",
        "libraryPins.libA.so: expected a string, found a number",
        "libraryPins.libB.so: \(Self.expectation), found 2 digits",
        #"libraryPins: expected a library's path as each key (as 'plugboard pin' writes it), found """#,
      ])
    #expect(
      try problems(topLevel(#""libraryPin": {}"#)) == [
        #"libraryPin: unknown key; did you mean "libraryPins"?"#
      ])
  }

  @Test func refusesRequirePinsThatIsNotABoolean() throws {
    #expect(
      try problems(topLevel(#""requirePins": "yes""#)) == ["requirePins: expected a boolean, found a string"])
  }

  @Test func refusesPluginRootsThatAreNotFolderPaths() throws {
    #expect(
      try problems(topLevel(#""pluginRoots": "/opt""#)) == [
        "pluginRoots: expected an array of folder paths, found a string"
      ])
    #expect(
      try problems(topLevel(#""pluginRoots": ["/opt", 3, ""]"#)) == [
        "pluginRoots[1]: expected a string, found a number",
        "pluginRoots[2]: expected a non-empty string",
      ])
  }

  @Test func refusesAStageTimeoutOutOfRange() throws {
    let range = "expected a number of seconds greater than 0 and at most 3600"
    #expect(
      try problems(topLevel(#""stageTimeout": "10""#)) == [
        "stageTimeout: expected a number of seconds, found a string"
      ])
    #expect(try problems(topLevel(#""stageTimeout": 0"#)) == ["stageTimeout: \(range), found 0"])
    #expect(try problems(topLevel(#""stageTimeout": -1"#)) == ["stageTimeout: \(range), found -1"])
    #expect(try problems(topLevel(#""stageTimeout": 3600.5"#)) == ["stageTimeout: \(range), found 3600.5"])
    #expect(try problems(topLevel(#""stageTimeout": 1e400"#)) == ["stageTimeout: \(range), found 1e400"])
    #expect(try read(topLevel(#""stageTimeout": 3600"#)).get().stageTimeout == .seconds(3600))
  }
}

@Suite struct RepositoryManifestTests {
  /// The repository's own `plugins.json` (what the README runs) is valid
  /// and names every sample plugin, in order, but IssueList (found in its
  /// drop-in folder plugins.d), then Timing (which decorates Networking's
  /// API client, and which the tests' own sample manifest leaves out), then
  /// the third-party one, optional.
  @Test func theSampleManifestIsValid() throws {
    let manifest = try ManifestReader.read(
      path: BuildProducts.packageRoot + "/plugins.json", origin: .defaultLocation
    ).get()
    #expect(
      manifest.plugins.map(\.name)
        == BuildProducts.samplePlugins.filter { $0 != "IssueList" } + ["Timing", "Analytics"])
    #expect(manifest.plugins.filter(\.optional).map(\.name) == ["Analytics"])
    #expect(manifest.pluginFolders == ["plugins.d"])
    let disabled = manifest.plugins.filter { !$0.enabled }
    #expect(disabled.isEmpty)
  }
}
