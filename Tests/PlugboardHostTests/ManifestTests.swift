import Testing

@testable import PlugboardHost

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
        "plugins[3].sha256: reserved for integrity pins, which this version of plugboard does not support yet",
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
        #"x: unknown key; expected one of "$schema", "formatVersion", "activeProfile", "profiles", "plugins""#,
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

@Suite struct RepositoryManifestTests {
  /// The repository's own `plugins.json` (what the README runs) is valid
  /// and names every sample plugin, in order, then the third-party one.
  @Test func theSampleManifestIsValid() throws {
    let manifest = try ManifestReader.read(
      path: BuildProducts.packageRoot + "/plugins.json", origin: .defaultLocation
    ).get()
    #expect(manifest.plugins.map(\.name) == BuildProducts.samplePlugins + ["Analytics"])
    let disabled = manifest.plugins.filter { !$0.enabled }
    #expect(disabled.isEmpty)
  }
}
