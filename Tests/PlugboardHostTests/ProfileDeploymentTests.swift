import Foundation
import PlugboardKit
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// The sample deployment in its two profiles, through the built binary and
/// in process: plugin-level switching (Auth / AuthMock), service-level
/// switching (Networking's "Mock" API client), a registration tagged
/// `!live` (Shell's labelled console), and the profile diagnostics.
@Suite(.blocking) struct ProfileDeploymentTests {
  static let liveOutput = """
    Keychain: unlocked
    Auth: session store opened
    Signing in as ada…
    Welcome, Ada Lovelace! Your session token is in the keychain.
    Menu (3 features): Account, Open issues, Help
    Account: Ada Lovelace (ada)
    Networking: GET https://issues.example.com/api/issues (timeout 5.0 s)
    Open issues (3):
      #12  Crash when plugins.json is empty  ← assigned to you
      #15  `plugboard list` should group by layer
      #21  Document the plugin ABI
    Help: plugboard run -- --user NAME --password SECRET
    Analytics recorded: login.succeeded, issues.viewed
    Auth: session store closed
    Keychain: locked

    """

  static let mockOutput = """
    Keychain: unlocked
    [fixture] Signing in as ada…
    [fixture] Welcome, Mock User! Your session token is in the keychain.
    [fixture] Menu (3 features): Account, Open issues, Help
    [fixture] Account: Mock User (ada)
    Networking: GET fixture://issues/issues (timeout 0.5 s)
    [fixture] Open issues (2):
    [fixture]   #1  Fixture: sign-in is mocked by the AuthMock plugin  ← assigned to you
    [fixture]   #2  Fixture: these issues come from FixtureAPIClient, not the server
    [fixture] Help: plugboard run -- --user NAME --password SECRET
    [fixture] Analytics recorded: login.succeeded, issues.viewed
    Keychain: locked

    """

  private func sample(_ text: ((String) -> String)? = nil) throws -> (TemporaryDirectory, String) {
    let analytics = try ThirdPartyBuild.analytics.get()
    let folder = try TemporaryDirectory()
    let manifest = SampleManifest.text(analytics: analytics)
    return (folder, try folder.write("plugins.json", text?(manifest) ?? manifest))
  }

  @Test(arguments: [
    ([], [:], liveOutput),
    (["--profile", "mock"], [:], mockOutput),
    ([], ["PLUGBOARD_PROFILE": "mock"], mockOutput),
    (["--profile", "live"], ["PLUGBOARD_PROFILE": "mock"], liveOutput),
  ])
  func runsTheProfileThatWins(flags: [String], environment: [String: String], expected: String) throws {
    let (folder, manifest) = try sample()
    let result = try Subprocess.plugboard(
      ["run", "--manifest", manifest] + flags,
      environment: environment.isEmpty ? ["PLUGBOARD_PROFILE": ""] : environment)
    #expect(result.stderr == "")
    #expect(result.status == 0)
    #expect(result.stdout == expected)
    _ = folder
  }

  @Test func anUnknownProfileIsMisuse() throws {
    let (folder, manifest) = try sample()
    let flag = try Subprocess.plugboard(["run", "--manifest", manifest, "--profile", "mok"])
    #expect(flag.status == 64)  // run: misuse
    #expect(flag.stdout == "")
    #expect(
      flag.stderrLines == [
        "plugboard: --profile mok: no profile 'mok' is declared in \(manifest); did you mean 'mock'?",
        "Run 'plugboard run --help' for usage.",
      ])
    let variable = try Subprocess.plugboard(
      ["list", "--manifest", manifest], environment: ["PLUGBOARD_PROFILE": "staging"])
    #expect(variable.status == 2)
    #expect(
      variable.stderrLines == [
        "plugboard: PLUGBOARD_PROFILE=staging: no profile 'staging' is declared in \(manifest); "
          + "declared: 'live', 'mock'",
        "Run 'plugboard list --help' for usage.",
      ])
    _ = folder
  }

  @Test func listShowsWhatChoseTheProfileAndWhatItChanged() throws {
    let (folder, manifest) = try sample()
    let result = try Subprocess.plugboard(
      ["list", "--manifest", manifest, "--profile", "mock"], environment: ["PLUGBOARD_PROFILE": "live"])
    #expect(result.status == 0)
    let head = result.stdout.split(separator: "\n").prefix(5).map(String.init)
    #expect(
      head == [
        "Deployment \(manifest)",
        "Profile 'mock' (from --profile; the manifest's default is 'live'): offline, on fixture data",
        "  plugin left out: Auth (loads in every profile but 'mock')",
        "  service switched: AppContracts.APIClient → its registration named \"Mock\"",
        "  registration switched: AppContracts.AppConsole at Shell/ShellAssembly.swift:13 in plugin Shell "
          + "(for every profile but 'live') replaces the one at Shell/ShellAssembly.swift:9 in plugin Shell",
      ])
    #expect(result.stdout.contains("Auth  \(BuildProducts.library("Auth"))  not loaded in this profile"))
    _ = folder
  }

  /// Auth is disabled and AuthMock loads only in mock. Brought up in
  /// live, nothing serves AuthService, and the report names both plugins,
  /// the disabled one too, as check does, instead of "nothing registers".
  @Test func aMissingServiceNamesThePluginTheProfileLeftOut() throws {
    let (folder, manifest) = try sample { text in
      text.replacingOccurrences(of: #""profiles": ["!mock"]"#, with: #""enabled": false"#)
    }
    let result = try Subprocess.plugboard(["run", "--manifest", manifest, "--profile", "live"])
    #expect(result.exited)
    #expect(result.status == 78)  // run: the deployment is broken
    let lines = result.stderrLines
    #expect(
      lines.first
        == "error: LoginFeature needs AuthService, which only plugin 'Auth' registers, and that plugin is not loaded"
    )
    #expect(
      Array(lines[4...5]) == [
        "  It is registered at Auth/AuthAssembly.swift:7 in plugin 'Auth', and plugin 'Auth' is disabled in "
          + "plugins.json (plugins[2].enabled is false).",
        "  It is registered at AuthMock/AuthMockAssembly.swift:8 in plugin 'AuthMock', and plugin 'AuthMock' is "
          + "not loaded in profile 'live' (it loads in 'mock').",
      ])
    #expect(!result.stderr.contains("nothing registers"))
    #expect(
      lines.last
        == "plugboard: run: the dependency graph has 2 errors; the application was not run "
        + "(plugboard check shows the whole report)")
    _ = folder
  }

  @Test func aChoiceOfAnUnknownTypeOrNameIsAProblem() throws {
    let folder = try TemporaryDirectory()
    let manifest = try SampleManifest.write(
      in: folder, mockServices: #"{ "APIClent": "Mock", "AuthService": "Fake" }"#)
    let result = try Subprocess.plugboard(["run", "--manifest", manifest, "--profile", "mock"])
    #expect(result.status == 78)  // run: the deployment is broken
    #expect(
      result.stderrLines == [
        "plugboard: apply profile: \(manifest): profiles.mock.services.APIClent: no plugin registers a "
          + "service type called \"APIClent\"; did you mean \"APIClient\"?",
        "plugboard: apply profile: \(manifest): profiles.mock.services.AuthService: AppContracts.AuthService "
          + "has no registration named \"Fake\" to serve it in profile 'mock'; its registrations: (unnamed)",
        "plugboard: the deployment has 2 problems; the application was not run",
      ])
  }

  @Test func inProcessTheProfileDecidesRegistrations() throws {
    let (folder, path) = try sample()
    let manifest = try ManifestReader.read(path: path, origin: .defaultLocation).get()
    let live = Deployment.bringUp(
      manifest, loader: PluginLoader(progress: ChildSession()), settings: HostSettings())
    #expect(live.problems.isEmpty)
    #expect(live.profile?.name == "live")
    #expect(live.container.selections.isEmpty)
    #expect(
      live.container.inactiveRegistrations.map(\.site.description) == [
        "Shell/ShellAssembly.swift:13 in plugin Shell"
      ])
    let chosen = ProfileChooser.choose(for: manifest, option: "mock", environment: [:])
    let mockProfile = try #require(try chosen.get())
    let mock = Deployment.bringUp(
      manifest, profile: mockProfile, loader: PluginLoader(progress: ChildSession()), settings: HostSettings()
    )
    #expect(mock.problems.isEmpty)
    #expect(mock.loadedPlugins.map(\.name).contains("AuthMock"))
    #expect(mock.excludedByProfile.map(\.name) == ["Auth"])
    #expect(
      mock.container.selections.map(\.description) == [
        "AppContracts.APIClient is served by its registration named \"Mock\" (chosen by profile 'mock')"
      ])
    #expect(mock.container.inactiveRegistrations.isEmpty)
    _ = folder
  }
}
