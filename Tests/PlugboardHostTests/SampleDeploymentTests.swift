import Foundation
import PlugboardKit
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// The sample deployment, from the real plugin libraries SwiftPM built —
/// including Analytics, built from its own package.
@Suite(.blocking) struct SampleDeploymentTests {
  /// A folder with the sample's `plugins.json` (profiles included) naming
  /// every sample plugin by absolute path, Analytics last.
  private func deployment() throws -> SampleDeployment {
    let analytics = try ThirdPartyBuild.analytics.get()
    let folder = try TemporaryDirectory()
    let manifest = try folder.write("plugins.json", SampleManifest.text(analytics: analytics))
    return SampleDeployment(folder: folder, manifest: manifest, analytics: analytics)
  }

  @Test func runsTheApplicationFromItsPlugins() throws {
    let sample = try deployment()
    let manifest = sample.manifest
    let result = try Subprocess.plugboard(["run", "--manifest", manifest])
    #expect(result.stderr == "")
    #expect(result.status == 0)
    #expect(result.stdout == ProfileDeploymentTests.liveOutput)
  }

  @Test func passesArgumentsAfterTheSeparatorToTheApplication() throws {
    let sample = try deployment()
    let manifest = sample.manifest
    let grace = try Subprocess.plugboard([
      "run", "--manifest", manifest, "--", "--user", "grace", "--password", "cobol",
    ])
    #expect(grace.status == 0)
    #expect(grace.stdout.contains("Welcome, Grace Hopper!"))
    #expect(grace.stdout.contains("#21  Document the plugin ABI  ← assigned to you"))

    let wrong = try Subprocess.plugboard([
      "run", "--manifest", manifest, "--", "--user", "grace", "--password", "x",
    ])
    #expect(wrong.exited)
    #expect(wrong.status == 1)
    #expect(wrong.stderrLines == ["plugboard: run: the application failed: POST /session answered 401"])
  }

  @Test func listsEachPluginWithItsRegistrations() throws {
    let deployment = try deployment()
    let (manifest, analytics) = (deployment.manifest, deployment.analytics)
    let result = try Subprocess.plugboard(["list", "--manifest", manifest])
    #expect(result.stderr == "")
    #expect(result.status == 0)
    let library = BuildProducts.library
    #expect(
      result.stdout == """
        Deployment \(manifest)
        Profile 'live' (from activeProfile in the manifest): the real implementations
          plugin left out: AuthMock (loads in 'mock')
          registration left out: AppContracts.AppConsole at Shell/ShellAssembly.swift:13 in plugin Shell (for every profile but 'live')
        8 plugins: 7 loaded, 1 not in profile 'live', 0 disabled, 0 failed; 12 registrations

        Networking 1.0.0  \(library("Networking"))
          TYPE                        NAME    SCOPE      REGISTERED AT
          AppContracts.HTTPTransport  -       container  Networking/NetworkingAssembly.swift:8
          AppContracts.APIClient      -       container  Networking/NetworkingAssembly.swift:10
          AppContracts.APIClient      "Mock"  container  Networking/NetworkingAssembly.swift:17
          SETTING   TYPE      VALUE                             FROM
          baseURL   String    "https://issues.example.com/api"  plugins[0].config.baseURL
          timeout   Duration  5                                 plugins[0].config.timeout
          apiToken  String?   -                                 -

        Keychain 1.0.0  \(library("Keychain"))
          TYPE                      NAME  SCOPE                          REGISTERED AT
          AppContracts.SecureStore  -     container (start, stop hooks)  Keychain/KeychainAssembly.swift:7

        Auth 1.0.0  \(library("Auth"))
          TYPE                      NAME  SCOPE                          REGISTERED AT
          AppContracts.AuthService  -     container (start, stop hooks)  Auth/AuthAssembly.swift:7

        AuthMock  \(library("AuthMock"))  not loaded in this profile

        Login 1.0.0  \(library("Login"))
          TYPE                       NAME                    SCOPE  REGISTERED AT
          AppContracts.LoginFeature  -                       graph  Login/LoginAssembly.swift:7
          AppContracts.AppFeature    contribution "account"  graph  Login/LoginAssembly.swift:16

        IssueList 1.0.0  \(library("IssueList"))
          TYPE                     NAME                   SCOPE  REGISTERED AT
          AppContracts.AppFeature  contribution "issues"  graph  IssueList/IssueListAssembly.swift:9

        Shell 1.0.0  \(library("Shell"))
          TYPE                      NAME                 SCOPE      REGISTERED AT
          AppContracts.AppConsole   -                    container  Shell/ShellAssembly.swift:9
          PlugboardKit.Application  -                    graph      Shell/ShellAssembly.swift:16
          AppContracts.AppFeature   contribution "help"  graph      Shell/ShellAssembly.swift:29

        Analytics 2.4.0  \(analytics)  (requires Shell 1.0.0..<2.0.0)
          TYPE                           NAME  SCOPE      REGISTERED AT
          AppContracts.AnalyticsTracker  -     container  Analytics/AnalyticsAssembly.swift:7

        Extension point AppContracts.AppFeature: 3 contributions, in resolution order
          ORDER  NAME       PLUGIN     SCOPE  REGISTERED AT
          10     "account"  Login      graph  Login/LoginAssembly.swift:16
          20     "issues"   IssueList  graph  IssueList/IssueListAssembly.swift:9
          90     "help"     Shell      graph  Shell/ShellAssembly.swift:29

        """)
  }

  @Test func listsAsJSONForMachines() throws {
    let deployment = try deployment()
    let (folder, analytics) = (deployment.folder, deployment.analytics)
    let manifest = try folder.write(
      "disabled.json",
      #"""
      { "formatVersion": 1, \#(BuildProducts.rootsMember) "plugins": [
        { "name": "Analytics", "path": "\#(analytics)" },
        { "name": "Legacy", "path": "legacy/libLegacy.so", "enabled": false },
        { "name": "Shell", "path": "\#(BuildProducts.library("Shell"))" } ] }
      """#)
    // Shell because Analytics requires it.
    let result = try Subprocess.plugboard(["list", "--json", "--manifest", manifest])
    #expect(result.status == 0)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(json["healthy"] as? Bool == true)
    #expect(json["manifest"] as? String == manifest)
    let plugins = try #require(json["plugins"] as? [[String: Any]])
    #expect(plugins.map { $0["name"] as? String } == ["Analytics", "Legacy", "Shell"])
    #expect(plugins.map { $0["status"] as? String } == ["loaded", "disabled", "loaded"])
    #expect(plugins[1]["file"] as? String == folder.path + "/legacy/libLegacy.so")
    let registration = try #require((plugins[0]["registrations"] as? [[String: Any]])?.first)
    #expect(registration["type"] as? String == "AppContracts.AnalyticsTracker")
    #expect(registration["scope"] as? String == "container")
    #expect(registration["file"] as? String == "Analytics/AnalyticsAssembly.swift")
    #expect(registration["line"] as? Int == 7)
  }

  /// The real libraries, loaded into this test process: each plugin's
  /// bundle passes `as? PluginBundle`, and its registrations carry its name.
  @Test func loadsTheRealPluginsInProcess() throws {
    let sample = try deployment()
    let path = sample.manifest
    let manifest = try ManifestReader.read(path: path, origin: .defaultLocation).get()
    let deployment = Deployment.bringUp(
      manifest, loader: PluginLoader(progress: ChildSession()), settings: HostSettings())
    #expect(deployment.problems.isEmpty)
    #expect(deployment.loadedPlugins.map(\.name) == BuildProducts.livePlugins + ["Analytics"])
    #expect(deployment.excludedByProfile.map(\.name) == ["AuthMock"])
    let owners = Set(deployment.container.registrations.compactMap(\.site.plugin))
    #expect(owners == Set(BuildProducts.livePlugins + ["Analytics"]))
    #expect(deployment.container.hasRegistration((any Application).self))
    // Loading again reuses the images (never unloaded, deduplicated by path).
    #expect(
      Deployment.bringUp(manifest, loader: PluginLoader(progress: ChildSession()), settings: HostSettings())
        .problems.isEmpty)
  }
}

/// A temporary folder holding a manifest of the sample deployment; the
/// folder lives as long as this value.
struct SampleDeployment {
  let folder: TemporaryDirectory
  let manifest: String
  let analytics: String
}
