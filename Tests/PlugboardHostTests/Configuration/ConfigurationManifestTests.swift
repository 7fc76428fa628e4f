import Foundation
import PlugboardKit
import Testing

@testable import PlugboardEngine

/// The manifest's `config` objects (a plugin entry's, a profile's) as the
/// reader decodes and refuses them, the schema that describes them, and
/// the resolution rule: environment > profile > entry > declared default.
@Suite struct ConfigurationManifestTests {
  private func decode(_ text: String) -> Result<Manifest, ManifestError> {
    ManifestReader.decode(Array(text.utf8), path: "/m/plugins.json")
  }

  private func problems(_ text: String) -> [String] {
    guard case .failure(.invalid(_, let problems)) = decode(text) else { return [] }
    return problems.map(\.description)
  }

  static let manifest = #"""
    { "formatVersion": 1, "activeProfile": "live",
      "profiles": { "live": {}, "mock": { "config": { "Net": { "baseURL": "fixture://", "retries": 1 } } } },
      "plugins": [ { "name": "Net", "path": "libNet.so",
                     "config": { "baseURL": "https://x", "timeout": 2.5, "retries": 3, "debug": true } } ] }
    """#

  @Test func decodesAnEntrysAndAProfilesConfig() throws {
    let manifest = try decode(Self.manifest).get()
    #expect(
      manifest.plugins[0].config == [
        "baseURL": .string("https://x"), "timeout": .number("2.5"), "retries": .number("3"),
        "debug": .bool(true),
      ])
    #expect(
      manifest.profile(named: "mock")?.config == [
        "Net": ["baseURL": .string("fixture://"), "retries": .number("1")]
      ])
    #expect(manifest.profile(named: "live")?.config == [:])
  }

  @Test func refusesValuesThatAreNotScalarsAndPluginsNotListed() {
    let text = #"""
      { "formatVersion": 1, "activeProfile": "live",
        "profiles": { "live": { "config": { "Nte": { "a": 1 }, "Other": { "b": 2 } } } },
        "plugins": [ { "name": "Net", "path": "libNet.so", "config": { "a": null, "b": [1], "": 1, "c": {} } } ] }
      """#
    #expect(
      problems(text) == [
        "plugins[0].config.a: expected a string, number or boolean, found null",
        "plugins[0].config.b: expected a string, number or boolean, found an array",
        "plugins[0].config.: a setting name must be 1 to 128 bytes long",
        "plugins[0].config.c: expected a string, number or boolean, found an object",
        #"profiles.live.config.Nte: no plugin is called "Nte"; did you mean "Net"?"#,
        #"profiles.live.config.Other: no plugin is called "Other" in plugins"#,
      ])
  }

  /// A plugin renamed in `plugins` but not in a profile's `config`: its
  /// settings give it away when its new name is no typo of the old.
  @Test func aRenamedPluginIsSuggestedBySettingsItIsGivenElsewhere() {
    let text = #"""
      { "formatVersion": 1, "activeProfile": "live",
        "profiles": { "live": {},
                      "mock": { "config": { "Weather": { "city": "Bergen" }, "Keychain": { "store": "memory" } } } },
        "plugins": [ { "name": "Forecast", "path": "libForecast.so", "config": { "city": "Oslo", "days": 3 } },
                     { "name": "Keychain", "path": "libKeychain.so", "config": { "city": "x" } },
                     { "name": "Clock", "path": "libClock.so" } ] }
      """#
    #expect(
      problems(text) == [
        #"profiles.mock.config.Weather: no plugin is called "Weather"; did you mean "Forecast"?"#
      ])
  }

  @Test func boundsTheNumberAndSizeOfSettings() {
    let many = (0...256).map { #""s\#($0)": 1"# }.joined(separator: ", ")
    let long = String(repeating: "x", count: 65_537)
    let text = #"""
      { "formatVersion": 1, "plugins": [ { "name": "A", "path": "a.so", "config": { \#(many) } },
        { "name": "B", "path": "b.so", "config": { "v": "\#(long)" } } ] }
      """#
    #expect(
      problems(text) == [
        "plugins[0].config: gives 257 settings; at most 256 are allowed",
        "plugins[1].config.v: the value is 65537 bytes long; at most 65536 are allowed",
      ])
  }

  @Test func theSampleManifestMatchesItsSchema() throws {
    let validator = SchemaValidator(folder: BuildProducts.packageRoot)
    let text = try String(contentsOfFile: BuildProducts.packageRoot + "/plugins.json", encoding: .utf8)
    #expect(try validator.violations(of: JSONParser.parse(text), against: "plugins.schema.json") == [])
    let schema = try JSONParser.parse(
      String(contentsOfFile: BuildProducts.packageRoot + "/plugins.schema.json", encoding: .utf8))
    #expect(schema["$defs"]?["plugin"]?["properties"]?["config"] != nil)
    #expect(schema["$defs"]?["profile"]?["properties"]?["config"] != nil)
    #expect(
      try validator.violations(of: JSONParser.parse(Self.manifest), against: "plugins.schema.json") == [])
  }

  // MARK: Resolution

  private static let declarations = [
    SettingDeclaration(
      name: "baseURL", type: .string, defaultValue: .string("https://default"), required: false),
    SettingDeclaration(name: "timeout", type: .duration, defaultValue: .number("10"), required: false),
    SettingDeclaration(name: "retries", type: .int, required: true),
    SettingDeclaration(name: "debug", type: .bool, required: false),
    SettingDeclaration(name: "token", type: .string, required: false, secret: true),
  ]

  @Test func theEnvironmentWinsOverTheProfileOverTheEntryOverTheDefault() throws {
    let manifest = try decode(Self.manifest).get()
    let resolver = ConfigurationResolver(environment: ["PLUGBOARD_CONFIG_NET_RETRIES": "9"])
    let (configuration, unknown) = resolver.resolve(
      manifest.plugins[0], profile: manifest.profile(named: "mock"), declarations: Self.declarations)
    #expect(unknown == [])
    #expect(
      configuration.values == [
        "retries": ConfiguredValue(.text("9"), from: .environment(variable: "PLUGBOARD_CONFIG_NET_RETRIES")),
        "baseURL": ConfiguredValue(
          .string("fixture://"), from: .profile("mock", keyPath: "profiles.mock.config.Net.baseURL")),
        "timeout": ConfiguredValue(.number("2.5"), from: .manifest(keyPath: "plugins[0].config.timeout")),
        "debug": ConfiguredValue(.bool(true), from: .manifest(keyPath: "plugins[0].config.debug")),
      ])
    #expect(try configuration[Setting<Int>("retries")] == 9)
    #expect(try configuration[Setting<Duration>("timeout")] == .milliseconds(2500))
    let live = ConfigurationResolver(environment: [:]).resolve(
      manifest.plugins[0], profile: manifest.profile(named: "live"), declarations: Self.declarations)
    #expect(try live.configuration[Setting<Int>("retries")] == 3)
    #expect(try live.configuration[Setting<String>("baseURL")] == "https://x")
    let bare = PluginEntry(index: 0, name: "Net", path: "libNet.so")
    let defaults = ConfigurationResolver(environment: [:]).resolve(
      bare, profile: nil, declarations: Self.declarations)
    #expect(try defaults.configuration[Setting<String>("baseURL", default: "unused")] == "unused")
    #expect(
      defaults.configuration.problems.map(\.description) == [
        "plugin 'Net': setting 'retries' is required and has no value"
      ])
  }

  @Test func theVariableNameIsPluginAndSettingUpperCasedWithUnderscores() {
    #expect(
      ConfigurationVariable.name(plugin: "Networking", setting: "baseURL")
        == "PLUGBOARD_CONFIG_NETWORKING_BASEURL")
    #expect(
      ConfigurationVariable.name(plugin: "issue-list", setting: "page.size")
        == "PLUGBOARD_CONFIG_ISSUE_LIST_PAGE_SIZE")
    #expect(ConfigurationVariable.name(plugin: "Café", setting: "x1") == "PLUGBOARD_CONFIG_CAF__X1")
  }

  @Test func valuesForUndeclaredSettingsAreUnknownWithASuggestion() throws {
    let manifest = try decode(Self.manifest).get()
    let (_, unknown) = ConfigurationResolver(environment: [:]).resolve(
      manifest.plugins[0], profile: manifest.profile(named: "mock"),
      declarations: [
        SettingDeclaration(name: "baseURL", type: .string, required: true),
        SettingDeclaration(name: "retires", type: .int, required: false),
      ])
    #expect(
      unknown.map(ConfigurationText.unknown) == [
        "setting 'debug' (plugins[0].config.debug) is not declared by the plugin",
        #"setting 'retries' (plugins[0].config.retries) is not declared by the plugin; did you mean "retires"?"#,
        "setting 'timeout' (plugins[0].config.timeout) is not declared by the plugin",
        #"setting 'retries' (profiles.mock.config.Net.retries) is not declared by the plugin; did you mean "retires"?"#,
      ])
  }

  @Test func aLenientResolutionGivesPlaceholdersSoAProbeCanAssemble() throws {
    let bare = PluginEntry(index: 0, name: "Net", path: "libNet.so")
    let (configuration, _) = ConfigurationResolver(
      environment: ["PLUGBOARD_CONFIG_NET_DEBUG": "maybe"], lenient: true
    )
    .resolve(bare, profile: nil, declarations: Self.declarations)
    #expect(configuration.problems == [])
    #expect(try configuration[Setting<Int>("retries")] == 0)
    #expect(try configuration[Setting<Bool>("debug")] == false)
  }
}
