import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// The manifest's `contributions` rules: an operator keeps or leaves out
/// contributions to an extension point, for every profile or per profile,
/// with no rebuild; a misspelt extension point or contribution is a
/// problem of the deployment with a did-you-mean.
@Suite(.blocking) struct ContributionRuleTests {
  /// The sample manifest with `topLevel` as its top-level
  /// `"contributions"` and `mock` as profile mock's (either may be nil).
  private func sample(topLevel: String?, mock: String? = nil) throws -> (TemporaryDirectory, String) {
    let analytics = try ThirdPartyBuild.analytics.get()
    let folder = try TemporaryDirectory()
    var text = SampleManifest.text(analytics: analytics)
    if let topLevel {
      try #require(text.contains(#""formatVersion": 1,"#))
      text = text.replacingOccurrences(
        of: #""formatVersion": 1,"#, with: #""formatVersion": 1, "contributions": \#(topLevel),"#)
    }
    if let mock {
      let description = #""description": "offline, on fixture data","#
      try #require(text.contains(description))
      text = text.replacingOccurrences(of: description, with: description + #" "contributions": \#(mock),"#)
    }
    return (folder, try folder.write("plugins.json", text))
  }

  @Test func anExcludedContributionLeavesTheMenuAndIsListedWithItsRule() throws {
    let (folder, manifest) = try sample(topLevel: #"{ "AppFeature": { "exclude": ["help"] } }"#)
    let run = try Subprocess.plugboard(["run", "--manifest", manifest])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("Menu (2 features): Account, Open issues\n"))
    #expect(!run.stdout.contains("Help:"))
    let list = try Subprocess.plugboard(["list", "--manifest", manifest])
    #expect(list.status == 0)
    #expect(
      list.stdout.hasSuffix(
        """
        Extension point AppContracts.AppFeature: 2 contributions, in resolution order
          ORDER  NAME       PLUGIN     SCOPE  REGISTERED AT
          10     "account"  Login      graph  Login/LoginAssembly.swift:16
          20     "issues"   IssueList  graph  IssueList/IssueListAssembly.swift:9
          left out: "help" (Shell, Shell/ShellAssembly.swift:29), excluded by contributions.AppFeature.exclude[0]

        """))
    // Left out by the manifest, not tagged for another profile.
    #expect(!list.stdout.contains("registration left out: AppContracts.AppFeature"))
    let json = try Subprocess.plugboard(["list", "--json", "--manifest", manifest])
    let document = try JSONParser.parse(json.stdout)
    let schemas = SchemaValidator(folder: BuildProducts.packageRoot + "/Docs/schemas")
    #expect(try schemas.violations(of: document, against: "list.schema.json") == [])
    #expect(
      json.stdout.contains(
        #""reason" : "excluded by contributions.AppFeature.exclude[0]""#))
    let explain = try Subprocess.plugboard(["explain", "AppFeature", "--manifest", manifest])
    #expect(
      explain.stdout.contains(
        "  - AppFeature contribution \"help\" at Shell/ShellAssembly.swift:29 in plugin Shell: "
          + "excluded by contributions.AppFeature.exclude[0] in \(manifest)\n"))
    _ = folder
  }

  @Test func aProfilesRuleReplacesTheTopLevelOneForItsExtensionPoint() throws {
    let (folder, manifest) = try sample(
      topLevel: #"{ "AppFeature": { "exclude": ["help"] } }"#,
      mock: #"{ "AppContracts.AppFeature": { "include": ["IssueList.*", "help"] } }"#)
    let live = try Subprocess.plugboard(["run", "--manifest", manifest])
    #expect(live.stdout.contains("Menu (2 features): Account, Open issues\n"), "\(live.stderr)")
    let mock = try Subprocess.plugboard([
      "run", "--manifest", manifest, "--profile", "mock",
    ])
    #expect(mock.status == 0, "\(mock.stderr)")
    #expect(mock.stdout.contains("Menu (2 features): Open issues, Help\n"))
    let list = try Subprocess.plugboard(["list", "--manifest", manifest, "--profile", "mock"])
    #expect(
      list.stdout.contains(
        "  left out: \"account\" (Login, Login/LoginAssembly.swift:16), "
          + "not listed in profiles.mock.contributions.AppContracts.AppFeature.include\n"))
    _ = folder
  }

  /// Leaving out every contribution of an extension point that needs one
  /// is the cardinality error, which names the rule that did it.
  @Test func excludingEveryContributionOfANeededExtensionPointIsACheckError() throws {
    let (folder, manifest) = try sample(topLevel: #"{ "AppFeature": { "include": [] } }"#)
    let check = try Subprocess.plugboard(["check", "--manifest", manifest, "--profile", "live"])
    #expect(check.status == 1)
    #expect(
      check.stdout.contains(
        """
        What went wrong:
          AppContracts.AppFeature is declared an extension point needing at least one contribution at Shell/ShellAssembly.swift:33 in plugin Shell.
          Its contributions are all left out in profile 'live'.
          Left out by \(manifest):
            AppFeature contribution "account" at Login/LoginAssembly.swift:16 in plugin Login: not listed in contributions.AppFeature.include
            AppFeature contribution "issues" at IssueList/IssueListAssembly.swift:9 in plugin IssueList: not listed in contributions.AppFeature.include
            AppFeature contribution "help" at Shell/ShellAssembly.swift:29 in plugin Shell: not listed in contributions.AppFeature.include

        Action:
          Keep a contribution to AppFeature in the manifest's "contributions" rules for this profile, or declare the extension point with another cardinality.
        """), "\(check.stdout)")
    _ = folder
  }

  @Test func misspeltExtensionPointsAndContributionsGetADidYouMean() throws {
    let (folder, manifest) = try sample(
      topLevel: #"{ "AppFeatur": { "exclude": ["help"] } }"#,
      mock: #"{ "AppFeature": { "include": ["IssueList.*", "acount"], "exclude": ["Shel.*"] } }"#)
    let run = try Subprocess.plugboard(["run", "--manifest", manifest, "--profile", "mock"])
    #expect(run.status == 78)
    #expect(run.stdout == "")
    #expect(
      run.stderr == """
        plugboard: apply profile: \(manifest): contributions.AppFeatur: no plugin contributes to or declares an extension point called "AppFeatur"; did you mean "AppFeature"?
        plugboard: apply profile: \(manifest): profiles.mock.contributions.AppFeature.include[1]: no contribution to AppContracts.AppFeature is called "acount"; did you mean "account"?
        plugboard: apply profile: \(manifest): profiles.mock.contributions.AppFeature.exclude[0]: no contribution to AppContracts.AppFeature is called "Shel.*"; did you mean "Shell.*"?
        plugboard: the deployment has 3 problems; the application was not run

        """)
    _ = folder
  }

  /// A selector with its plugin's name matches nothing, silently, in a
  /// profile that does not load that plugin; where the plugin loads and
  /// contributes nothing, it is a mistake.
  @Test func aSelectorOfAPluginTheProfileLeavesOutIsNotAProblem() throws {
    let (folder, manifest) = try sample(topLevel: #"{ "AppFeature": { "exclude": ["AuthMock.*"] } }"#)
    let live = try Subprocess.plugboard(["check", "--manifest", manifest, "--profile", "live"])
    #expect(live.status == 0, "\(live.stdout)")
    let mock = try Subprocess.plugboard(["check", "--manifest", manifest, "--profile", "mock"])
    #expect(mock.status == 1)
    #expect(
      mock.stdout.contains(
        "contributions.AppFeature.exclude[0]: no contribution to AppContracts.AppFeature is called "
          + #""AuthMock.*"; its contributions: "account" (Login), "issues" (IssueList), "help" (Shell)"#))
    _ = folder
  }

  /// The shapes are checked when the manifest is read, every problem at
  /// its place.
  @Test func malformedRulesAreManifestProblems() throws {
    let folder = try TemporaryDirectory()
    let path = try folder.write(
      "plugins.json",
      #"""
      { "formatVersion": 1, "plugins": [],
        "contributions": {
          "AppFeature": { "exlude": ["help"] },
          "Command": {},
          "Menu": { "include": "help", "exclude": ["a", "", 3, "a"] },
          "": { "exclude": [] }
        } }
      """#)
    guard case .failure(let error) = ManifestReader.read(path: path, origin: .defaultLocation) else {
      Issue.record("the manifest was accepted")
      return
    }
    #expect(
      error.lines.map { $0.replacingOccurrences(of: path + ": ", with: "") } == [
        #"contributions.AppFeature.exlude: unknown key; did you mean "exclude"?"#,
        #"contributions.Command: expected "include" (the contributions to keep) or "exclude" (the contributions to leave out), or both"#,
        #"contributions.Menu.include: expected an array of contribution names ("trace", "Debug.trace" or "Debug.*"), found a string"#,
        "contributions.Menu.exclude[1]: expected a non-empty string",
        "contributions.Menu.exclude[2]: expected a string, found a number",
        #"contributions.Menu.exclude[3]: "a" is listed twice; list each once"#,
        "contributions.: expected an extension point's type name, found an empty key",
      ])
  }
}
