import Foundation
import PlugboardTestSupport
import Testing

/// `plugboard check` sees contributions: in a profile that leaves out a
/// contributing plugin, the extension point gets one contribution fewer,
/// and the warning says which, where it is made and why it is missing.
@Suite(.blocking) struct ContributionCheckTests {
  /// The sample with IssueList loaded in `live` only.
  private func sample() throws -> (TemporaryDirectory, String) {
    let analytics = try ThirdPartyBuild.analytics.get()
    let folder = try TemporaryDirectory()
    let listed = #""name": "IssueList", "path": "\#(BuildProducts.library("IssueList"))""#
    let text = SampleManifest.text(analytics: analytics)
    try #require(text.contains(listed))
    let manifest = try folder.write(
      "plugins.json", text.replacingOccurrences(of: listed, with: listed + #", "profiles": ["live"]"#))
    return (folder, manifest)
  }

  @Test func aContributionItsProfileLeavesOutIsAWarningInThatProfile() throws {
    let (folder, manifest) = try sample()
    let result = try Subprocess.plugboard(["check", "--manifest", manifest, "--profile", "mock"])
    #expect(result.stderr == "")
    #expect(result.status == 0)
    #expect(
      result.stdout == """
        Checking \(manifest) in profile 'mock': 8 plugins (6 loaded), 11 registrations
        load order: Networking, Keychain, AuthMock, Login, Shell, Analytics (requires Shell 1.0.0..<2.0.0)

        warning: AppFeature contribution "issues" is missing from its extension point: plugin 'IssueList' is not loaded in profile 'mock' (it loads in 'live')

        What went wrong:
          It is contributed at IssueList/IssueListAssembly.swift:9 in plugin IssueList.
          Everything that resolves every contribution to AppContracts.AppFeature gets one fewer here.

        Action:
          If AppFeature needs it here, load plugin 'IssueList' (plugins[5]); otherwise nothing is wrong.

        check: 0 errors, 1 warning; the deployment is healthy in profile 'mock'

        """)
    let live = try Subprocess.plugboard(["check", "--manifest", manifest, "--profile", "live"])
    #expect(live.status == 0)
    #expect(live.stdout.contains("check: 0 errors, 0 warnings; the deployment is healthy in profile 'live'"))
    let json = try Subprocess.plugboard(["check", "--manifest", manifest, "--profile", "mock", "--json"])
    #expect(json.stdout.contains(#""kind" : "contributionMissing""#))
    #expect(!json.stdout.contains(#"\u0000"#))
    _ = folder
  }

  /// explain names a left-out plugin's contribution as one, not by its
  /// reserved name.
  @Test func explainNamesAContributionItsProfileLeavesOut() throws {
    let (folder, manifest) = try sample()
    let result = try Subprocess.plugboard([
      "explain", "AppFeature", "--manifest", manifest, "--profile", "mock",
    ])
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(
      Array(lines.drop { $0 != "Not chosen:" }) == [
        "Not chosen:",
        "  - AppFeature contribution \"issues\" at IssueList/IssueListAssembly.swift:9 in plugin IssueList: "
          + "plugin 'IssueList' is not loaded in profile 'mock' (it loads in 'live')",
      ])
    #expect(lines.contains("Contributions (2), in resolution order:"))
    _ = folder
  }
}
