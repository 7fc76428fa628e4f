import Foundation
import PlugboardKit
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// Messages that are easy to get backwards, pointing at the right cause
/// and the right fix (which registration is shadowed, why a profile chose
/// a registration, what a probe's timeout asks for), each pinned to its
/// exact text.
@Suite(.blocking) struct MessageDirectionTests {
  /// Keychain and SecondKeychain both register SecureStore.
  private func twoKeychains() throws -> CheckedDeployment {
    let names = ["Networking", "Keychain", "SecondKeychain", "Auth", "Login", "IssueList", "Shell"]
    return try CheckedDeployment(names.map { .built($0) })
  }

  @Test func runWarnsAboutAKeyTwoPluginsRegister() throws {
    let deployment = try twoKeychains()
    let result = try Subprocess.plugboard(["run", "--manifest", deployment.manifest, "--", "--help"])
    #expect(result.exited)
    #expect(result.status == 2)  // the application's own usage status, not plugboard's 64
    #expect(
      result.stderrLines.first
        == "plugboard: run: warning: SecureStore is registered by plugins 'Keychain' and 'SecondKeychain'; "
        + "'SecondKeychain' wins")
  }

  @Test func graphDrawsTheShadowedRegistration() throws {
    let deployment = try twoKeychains()
    let dot = try Subprocess.plugboard(["graph", "--manifest", deployment.manifest])
    #expect(
      dot.stdout.split(separator: "\n").filter { $0.contains("s0 [") } == [
        #"    s0 [label="SecureStore\nshadowed by SecondKeychain/SecondKeychainPlugin.swift:13 in plugin "#
          + ##"SecondKeychain", style="rounded,dashed", color="#888888", fontcolor="#888888"];"##
      ])
    let json = try JSONParser.parse(
      try Subprocess.plugboard(["graph", "--manifest", deployment.manifest, "--format", "json"]).stdout)
    guard case .array(let nodes)? = json["nodes"] else {
      Issue.record("no nodes in \(json)")
      return
    }
    let shadowed = nodes.filter { $0["status"] == .string("shadowed") }
    // Shell's own AppConsole, replaced by its registration tagged for
    // every profile but 'live', is shadowed too.
    #expect(shadowed.map { $0["plugin"] } == [.string("Keychain"), .string("Shell")])
  }

  /// The profile switches APIClient to its "Mock" registration: the
  /// unnamed one is not chosen because of the profile, not because of a
  /// name "" nobody asked for.
  @Test func explainNamesTheProfilesChoice() throws {
    let analytics = try ThirdPartyBuild.analytics.get()
    let folder = try TemporaryDirectory()
    let manifest = try folder.write("plugins.json", SampleManifest.text(analytics: analytics))
    let result = try Subprocess.plugboard([
      "explain", "APIClient", "--manifest", manifest, "--profile", "mock",
    ])
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.contains(#"  unnamed requests are served by the name "Mock" (chosen by profile 'mock')"#))
    #expect(
      lines.contains(
        "  - APIClient at Networking/NetworkingAssembly.swift:10 in plugin Networking: unnamed requests go to "
          + #"the registration named "Mock" instead (chosen by profile 'mock')"#))
    #expect(!result.stdout.contains(#"the request is for the name """#))
  }

  /// A plugin that failed is already reported; a profile's choice of a
  /// type it may register is not blamed on the manifest besides.
  @Test func aChoiceOfATypeAFailedPluginMayRegisterIsNotAManifestError() {
    let place = ManifestPath.root.key("profiles").key("mock").key("services")
    let declaration = ProfileDeclaration(
      name: "mock",
      services: [ServiceChoice(type: "WeatherService", name: "Mock", path: place.key("WeatherService"))])
    let container = Container()
    #expect(
      ServiceSelector.apply(
        declaration, to: container, manifest: "/srv/plugins.json", failedPlugins: ["Weather"]
      )
      .isEmpty)
    #expect(
      ServiceSelector.apply(declaration, to: container, manifest: "/srv/plugins.json").map(\.description) == [
        "apply profile: /srv/plugins.json: profiles.mock.services.WeatherService: no plugin registers a service "
          + #"type called "WeatherService""#
      ])
  }

  /// A disabled plugin that hangs while being probed may be merely slow:
  /// the action says how to give it more time before blaming it.
  @Test func aProbeThatTimesOutAdvisesRaisingTheTimeout() throws {
    let hang = try CFixtures.directory.get() + "/libHang.so"
    let deployment = try CheckedDeployment(
      CheckedDeployment.live + [CheckedDeployment.Plugin(name: "Hang", path: hang, enabled: false)])
    let result = try deployment.check(["--stage-timeout", "2", "--json"])
    let json = try JSONParser.parse(result.stdout)
    guard case .array(let reports)? = json["reports"], case .array(let findings)? = reports.first?["findings"]
    else {
      Issue.record("no findings in \(result.stdout)")
      return
    }
    let probe = findings.first { $0["kind"] == .string("probeFailure") }
    #expect(
      probe?["action"]
        == .string(
          #"If plugin 'Hang' is only slow, raise "stageTimeout" in the manifest or pass --stage-timeout; "#
            + "otherwise fix it before loading it, or remove it from plugins.json."))
  }
}
