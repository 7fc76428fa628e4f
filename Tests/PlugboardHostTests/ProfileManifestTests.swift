import PlugboardKit
import Testing

@testable import PlugboardEngine

/// Profiles in `plugins.json`: what is read, and each mistake at its place.
@Suite struct ProfileManifestTests {
  private func read(_ text: String) throws -> (path: String, result: Result<Manifest, ManifestError>) {
    let folder = try TemporaryDirectory()
    let path = try folder.write("plugins.json", text)
    return (path, ManifestReader.read(path: path, origin: .defaultLocation))
  }

  private func problems(_ text: String) throws -> [String] {
    let (path, result) = try read(text)
    guard case .failure(let error) = result else { return [] }
    return error.lines.map { $0.replacingOccurrences(of: path + ": ", with: "") }
  }

  @Test func readsProfilesChoicesAndPluginConditions() throws {
    let manifest = try read(
      #"""
      { "formatVersion": 1, "activeProfile": "live",
        "profiles": { "live": {}, "mock": { "description": "fixtures", "services": { "APIClient": "Mock" } } },
        "plugins": [ { "name": "Auth", "path": "a.so", "profiles": ["!mock"] },
                     { "name": "AuthMock", "path": "m.so", "profiles": ["mock"] } ] }
      """#
    ).result.get()
    #expect(manifest.activeProfile == "live")
    #expect(manifest.profiles.map(\.name) == ["live", "mock"])
    #expect(manifest.profile(named: "mock")?.description == "fixtures")
    let choice = try #require(manifest.profile(named: "mock")?.services.first)
    #expect(
      "\(choice.path): \(choice.type) → \(choice.name)"
        == "profiles.mock.services.APIClient: APIClient → Mock")
    #expect(manifest.plugins.map { $0.profiles?.description } == ["every profile but 'mock'", "'mock'"])
    #expect(manifest.plugins.map { $0.loads(inProfile: "live") } == [true, false])
    #expect(manifest.plugins.map { $0.loads(inProfile: "mock") } == [false, true])
  }

  @Test func everyProfileNameMustBeDeclared() throws {
    let text = #"""
      { "formatVersion": 1, "activeProfile": "moc",
        "profiles": { "live": {}, "mock": { "servces": {} }, "!x": {} },
        "plugins": [ { "name": "A", "path": "a.so", "profiles": ["!lve", "staging"] },
                     { "name": "B", "path": "b.so", "profiles": [] } ] }
      """#
    #expect(
      try problems(text) == [
        #"profiles.mock.servces: unknown key; did you mean "services"?"#,
        #"profiles.!x: a profile name cannot start with "!", which means "every profile but""#,
        "activeProfile: no profile 'moc' is declared; did you mean 'mock'?",
        "plugins[0].profiles[0]: no profile 'lve' is declared; did you mean 'live'?",
        "plugins[0].profiles[1]: no profile 'staging' is declared; declared: 'live', 'mock'",
        "plugins[1].profiles: expected at least one profile; omit the key to load the plugin in every profile",
      ])
  }

  @Test func declaredProfilesNeedADefault() throws {
    #expect(
      try problems(#"{ "formatVersion": 1, "profiles": { "live": {}, "mock": {} }, "plugins": [] }"#) == [
        "(top level): missing required key \"activeProfile\" (the profile used when neither --profile nor "
          + "PLUGBOARD_PROFILE chooses one; declared: 'live', 'mock')"
      ])
    #expect(
      try problems(#"{ "formatVersion": 1, "activeProfile": "live", "plugins": [] }"#) == [
        "activeProfile: no profile 'live' is declared; the manifest declares no profiles"
      ])
  }
}

/// `--profile` over `PLUGBOARD_PROFILE` over the manifest's `activeProfile`.
@Suite struct ProfilePrecedenceTests {
  let manifest = Manifest(
    path: "/srv/plugins.json", plugins: [],
    profiles: [ProfileDeclaration(name: "live"), ProfileDeclaration(name: "mock")], activeProfile: "live")

  private func choose(option: String?, environment: [String: String]) -> String {
    switch ProfileChooser.choose(for: manifest, option: option, environment: environment) {
    case .success(let profile): profile.map { "\($0.name) from \($0.source.label)" } ?? "none"
    case .failure(let error): "error: \(error)"
    }
  }

  @Test func theFlagBeatsTheEnvironmentWhichBeatsTheManifest() {
    #expect(choose(option: nil, environment: [:]) == "live from activeProfile in the manifest")
    #expect(choose(option: nil, environment: ["PLUGBOARD_PROFILE": "mock"]) == "mock from PLUGBOARD_PROFILE")
    #expect(choose(option: "mock", environment: [:]) == "mock from --profile")
    #expect(choose(option: "live", environment: ["PLUGBOARD_PROFILE": "mock"]) == "live from --profile")
    // An empty variable is unset, as shells often leave it.
    #expect(
      choose(option: nil, environment: ["PLUGBOARD_PROFILE": ""]) == "live from activeProfile in the manifest"
    )
  }

  @Test func anUndeclaredNameIsAnErrorNeverAFallback() {
    #expect(
      choose(option: "mok", environment: ["PLUGBOARD_PROFILE": "mock"])
        == "error: --profile mok: no profile 'mok' is declared in /srv/plugins.json; did you mean 'mock'?")
    #expect(
      choose(option: nil, environment: ["PLUGBOARD_PROFILE": "staging"])
        == "error: PLUGBOARD_PROFILE=staging: no profile 'staging' is declared in /srv/plugins.json; "
        + "declared: 'live', 'mock'")
    let bare = Manifest(path: "/srv/plugins.json", plugins: [])
    #expect(
      ProfileChooser.choose(for: bare, option: "mock", environment: [:]).map { $0?.name }
        == .failure(
          ProfileChoiceError(
            source: .option, requested: "mock",
            message: "no profile 'mock' is declared in /srv/plugins.json; the manifest declares no profiles"))
    )
  }
}

/// A plugin's `profiles` list is a list of alternatives; the lists that
/// would mean something else than they read as are refused.
@Suite struct ProfileConditionManifestTests {
  private func problems(_ conditions: [String], declared: [String] = ["live", "mock"]) throws -> [String] {
    let profiles = declared.map { #""\#($0)": {}"# }.joined(separator: ", ")
    let list = conditions.map { #""\#($0)""# }.joined(separator: ", ")
    let folder = try TemporaryDirectory()
    let path = try folder.write(
      "plugins.json",
      #"""
      { "formatVersion": 1, "activeProfile": "\#(declared[0])", "profiles": { \#(profiles) },
        "plugins": [ { "name": "A", "path": "a.so", "profiles": [\#(list)] } ] }
      """#)
    guard case .failure(let error) = ManifestReader.read(path: path, origin: .defaultLocation) else {
      return []
    }
    return error.lines.map { $0.replacingOccurrences(of: path + ": ", with: "") }
  }

  @Test func negationsAreAlternativesSoTwoOfThemMatchEveryProfile() throws {
    #expect(
      try problems(["!live", "!mock"]) == [
        #"plugins[0].profiles: ["!live", "!mock"] matches every profile: the entries are alternatives (the "#
          + "plugin loads when any one matches), and every profile is either not 'live' or not 'mock'; no "
          + #"declared profile is outside them, so set "enabled": false instead"#
      ])
    #expect(
      try problems(["!live", "!mock"], declared: ["live", "mock", "test", "ci"]) == [
        #"plugins[0].profiles: ["!live", "!mock"] matches every profile: the entries are alternatives (the "#
          + "plugin loads when any one matches), and every profile is either not 'live' or not 'mock'; to "
          + #"load it only where none of them is active, list those profiles: ["test", "ci"]"#
      ])
  }

  @Test func aConditionMatchingEveryDeclaredProfileOrNoneIsRefused() throws {
    #expect(
      try problems(["live", "mock"]) == [
        #"plugins[0].profiles: matches every declared profile ('live', 'mock'); omit "profiles" to load the "#
          + "plugin in every profile"
      ])
    #expect(
      try problems(["!live"], declared: ["live"]) == [
        "plugins[0].profiles: matches no declared profile (declared: 'live'), so the plugin would never load; "
          + #"set "enabled": false to keep it listed but not loaded"#
      ])
  }

  @Test func contradictionsAndRepetitionsAreRefused() throws {
    #expect(
      try problems(["live", "!live"]) == [
        #"plugins[0].profiles[1]: "!live" and "live" at [0] together match every profile; omit "profiles" "#
          + "to load the plugin in every profile"
      ])
    #expect(
      try problems(["mock", "mock"]) == [
        #"plugins[0].profiles[1]: "mock" is already listed at [0]; list each profile once"#
      ])
  }

  @Test func aConditionThatChoosesIsKept() throws {
    #expect(try problems(["mock"]) == [])
    #expect(try problems(["!mock"]) == [])
    #expect(try problems(["mock", "test"], declared: ["live", "mock", "test"]) == [])
  }
}
