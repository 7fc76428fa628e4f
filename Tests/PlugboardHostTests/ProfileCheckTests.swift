import Foundation
import PlugboardKit
import PlugboardTestSupport
import Testing

/// `plugboard check` per profile on the sample deployment, and `explain`
/// and `graph` in a chosen profile, through the built binary.
@Suite(.blocking) struct ProfileCheckTests {
  private func sample(_ edit: (String) -> String = { $0 }) throws -> (TemporaryDirectory, String) {
    let analytics = try ThirdPartyBuild.analytics.get()
    let folder = try TemporaryDirectory()
    return (folder, try folder.write("plugins.json", edit(SampleManifest.text(analytics: analytics))))
  }

  /// Analytics, built in its own package, ships its own build of
  /// libAppContracts.so and uses the one Networking loaded: both carry the
  /// AppContracts stamp Analytics recorded, so nothing is reported.
  @Test func theSampleIsCleanInEveryProfile() throws {
    let (folder, manifest) = try sample()
    let result = try Subprocess.plugboard(["check", "--manifest", manifest])
    #expect(result.exited)
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(
      result.stdout == """
        Checking \(manifest) in profile 'live': 8 plugins (7 loaded), 12 registrations
        load order: Networking, Keychain, Auth, Login, IssueList, Shell, Analytics (requires Shell 1.0.0..<2.0.0)

        check: 0 errors, 0 warnings; the deployment is healthy in profile 'live'

        Checking \(manifest) in profile 'mock': 8 plugins (7 loaded), 12 registrations
        load order: Networking, Keychain, AuthMock, Login, IssueList, Shell, Analytics (requires Shell 1.0.0..<2.0.0)

        check: 0 errors, 0 warnings; the deployment is healthy in profile 'mock'

        check: 2 profiles checked: 'live' healthy (0 errors, 0 warnings), 'mock' healthy (0 errors, 0 warnings); the deployment is healthy

        """)
    _ = folder
  }

  /// Networking loads only in `live`: healthy there, broken in `mock`,
  /// where nothing serves APIClient and the profile's choice of its "Mock"
  /// registration has nothing to choose from. PLUGBOARD_PROFILE does not
  /// narrow the check.
  @Test func aGraphHealthyInLiveCanBeBrokenInMock() throws {
    let networking = "\"path\": \"\(BuildProducts.library("Networking"))\""
    let (folder, manifest) = try sample {
      $0.replacingOccurrences(of: networking, with: networking + #", "profiles": ["live"]"#)
    }
    let result = try Subprocess.plugboard(
      ["check", "--manifest", manifest], environment: ["PLUGBOARD_PROFILE": "live"])
    #expect(result.exited)
    #expect(result.status == 1)
    #expect(
      result.stdout == """
        Checking \(manifest) in profile 'live': 8 plugins (7 loaded), 12 registrations
        load order: Networking, Keychain, Auth, Login, IssueList, Shell, Analytics (requires Shell 1.0.0..<2.0.0)

        check: 0 errors, 0 warnings; the deployment is healthy in profile 'live'

        Checking \(manifest) in profile 'mock': 8 plugins (6 loaded), 9 registrations
        load order: Keychain, AuthMock, Login, IssueList, Shell, Analytics (requires Shell 1.0.0..<2.0.0)

        error: the deployment failed at stage 'apply profile'

        What went wrong:
          apply profile: \(manifest): profiles.mock.services.APIClient: no plugin registers a service type called "APIClient"

        Action:
          Correct the manifest where the explanation points; nothing falls back to another choice.

        error: AppFeature contribution "issues" needs APIClient, which only plugin 'Networking' registers, and that plugin is not loaded

        What went wrong:
          AppContracts.APIClient is a dependency declared at IssueList/IssueListAssembly.swift:9 in plugin IssueList.
          It is registered at Networking/NetworkingAssembly.swift:10 in plugin 'Networking', and plugin 'Networking' is not loaded in profile 'mock' (it loads in 'live').

        Chain:
          Application  (registered at Shell/ShellAssembly.swift:16 in plugin Shell)
          → AppFeature contribution "issues"  (registered at IssueList/IssueListAssembly.swift:9 in plugin IssueList)
          → APIClient  (registered at Networking/NetworkingAssembly.swift:10 in plugin Networking  ✗ plugin 'Networking' is not loaded)

        Action:
          Load plugin 'Networking' in this profile (its "profiles" in plugins[0]), or register APIClient in a plugin that is loaded.

        check: 2 errors, 0 warnings; the deployment is broken in profile 'mock'

        check: 2 profiles checked: 'live' healthy (0 errors, 0 warnings), 'mock' broken (2 errors, 0 warnings); the deployment is broken

        """)

    let live = try Subprocess.plugboard(["check", "--manifest", manifest, "--profile", "live"])
    #expect(live.status == 0)
    #expect(
      live.stdout == """
        Checking \(manifest) in profile 'live': 8 plugins (7 loaded), 12 registrations
        load order: Networking, Keychain, Auth, Login, IssueList, Shell, Analytics (requires Shell 1.0.0..<2.0.0)

        check: 0 errors, 0 warnings; the deployment is healthy in profile 'live'

        """)

    let json = try Subprocess.plugboard(["check", "--manifest", manifest, "--json"])
    #expect(json.status == 1)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let reports = try #require(object["reports"] as? [[String: Any]])
    #expect(object["healthy"] as? Bool == false)
    #expect(object["errors"] as? Int == 2)
    #expect(reports.map { $0["profile"] as? String } == ["live", "mock"])
    #expect(reports.map { $0["healthy"] as? Bool } == [true, false])
    let kinds = (reports[1]["findings"] as? [[String: Any]])?.map { $0["kind"] as? String }
    #expect(kinds == ["loadFailure", "disabledProvider"])
    _ = folder
  }

  /// Auth is disabled, so in `live` only AuthMock — left out by the
  /// profile — registers AuthService.
  @Test func aProviderTheProfileLeavesOutIsNamed() throws {
    let (folder, manifest) = try sample {
      $0.replacingOccurrences(of: #""profiles": ["!mock"]"#, with: #""enabled": false"#)
    }
    let result = try Subprocess.plugboard(["check", "--manifest", manifest, "--profile", "live"])
    #expect(result.status == 1)
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(
      Array(lines.prefix(7)) == [
        "Checking \(manifest) in profile 'live': 8 plugins (6 loaded), 11 registrations",
        "load order: Networking, Keychain, Login, IssueList, Shell, Analytics (requires Shell 1.0.0..<2.0.0)",
        "",
        "error: LoginFeature needs AuthService, which only plugin 'Auth' registers, and that plugin is not loaded",
        "",
        "What went wrong:",
        "  AppContracts.AuthService is a dependency declared at Login/LoginAssembly.swift:7 in plugin Login.",
      ])
    #expect(
      lines.contains(
        "  It is registered at AuthMock/AuthMockAssembly.swift:8 in plugin 'AuthMock', and plugin 'AuthMock' "
          + "is not loaded in profile 'live' (it loads in 'mock')."))
    _ = folder
  }

  @Test func anUndeclaredProfileIsMisuse() throws {
    let (folder, manifest) = try sample()
    let result = try Subprocess.plugboard(["check", "--manifest", manifest, "--profile", "mok"])
    #expect(result.status == 2)
    #expect(result.stdout == "")
    #expect(
      result.stderrLines == [
        "plugboard: --profile mok: no profile 'mok' is declared in \(manifest); did you mean 'mock'?",
        "Run 'plugboard check --help' for usage.",
      ])
    _ = folder
  }

  @Test func explainShowsTheProfileAndWhatItChanged() throws {
    let (folder, manifest) = try sample()
    let result = try Subprocess.plugboard(
      ["explain", "AuthService", "--manifest", manifest], environment: ["PLUGBOARD_PROFILE": "mock"])
    #expect(result.exited)
    #expect(result.status == 0)
    #expect(
      result.stdout == """
        explain: AppContracts.AuthService

        Profile 'mock' (from PLUGBOARD_PROFILE; the manifest's default is 'live'): offline, on fixture data
          plugin left out: Auth (loads in every profile but 'mock')
          service switched: AppContracts.APIClient → its registration named "Mock"
          registration switched: AppContracts.AppConsole at Shell/ShellAssembly.swift:13 in plugin Shell (for every profile but 'live') replaces the one at Shell/ShellAssembly.swift:9 in plugin Shell

        Chosen:
          AuthService  (registered at AuthMock/AuthMockAssembly.swift:8 in plugin AuthMock)
          scope container, unnamed
          plugin 'AuthMock' was compiled against PlugboardKit \(PlugboardBuild.kitRelease) (the host's)

        Dependency tree:
          AuthService  [container]  AuthMock/AuthMockAssembly.swift:8 in plugin AuthMock

        Not chosen:
          - AuthService at Auth/AuthAssembly.swift:7 in plugin Auth: plugin 'Auth' is not loaded in profile 'mock' (it loads in every profile but 'mock')

        """)
    _ = folder
  }
}
