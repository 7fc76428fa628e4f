import PlugboardTestSupport
import Testing

/// The sample's Networking plugin, configured in plugins.json, uses other
/// settings in `mock` than in `live`, and the environment overrides both;
/// it prints what it uses before each fetch.
@Suite(.blocking) struct SampleConfigurationTests {
  @Test func theSampleUsesOtherSettingsInMockThanInLive() throws {
    let analytics = try ThirdPartyBuild.analytics.get()
    let folder = try TemporaryDirectory()
    let manifest = try folder.write("plugins.json", SampleManifest.text(analytics: analytics))
    func networking(_ flags: [String], _ environment: [String: String] = [:]) throws -> [String] {
      let result = try Subprocess.plugboard(
        ["run", "--manifest", manifest] + flags, environment: environment)
      #expect(result.status == 0)
      return result.stdout.split(separator: "\n").filter { $0.hasPrefix("Networking:") }.map(String.init)
    }
    #expect(try networking([]) == ["Networking: GET https://issues.example.com/api/issues (timeout 5.0 s)"])
    #expect(
      try networking(["--profile", "mock"]) == ["Networking: GET fixture://issues/issues (timeout 0.5 s)"])
    #expect(
      try networking(
        [], ["PLUGBOARD_CONFIG_NETWORKING_TIMEOUT": "2", "PLUGBOARD_CONFIG_NETWORKING_APITOKEN": "t0k"])
        == ["Networking: GET https://issues.example.com/api/issues (timeout 2.0 s, with API token)"])
  }
}
