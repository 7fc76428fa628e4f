import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// A plugin decorates a service another plugin registers: the sample's
/// Timing plugin wraps Networking's API client. The deployment runs it,
/// list, explain, graph and check show it, and the manifest's
/// `"decorators"` rules leave it out with no rebuild.
@Suite(.blocking) struct DecoratorDeploymentTests {
  /// The sample manifest with the Timing plugin after Shell, and
  /// `topLevel` as its top-level `"decorators"`; without Networking when
  /// `withoutNetworking`.
  private func sample(topLevel: String? = nil, withoutNetworking: Bool = false) throws
    -> (TemporaryDirectory, String)
  {
    let folder = try TemporaryDirectory()
    var text = try SampleManifest.textWithTiming()
    if let topLevel {
      text = text.replacingOccurrences(
        of: #""formatVersion": 1,"#, with: #""formatVersion": 1, "decorators": \#(topLevel),"#)
    }
    if withoutNetworking {
      let networking = #""name": "Networking", "path""#
      try #require(text.contains(networking))
      text = text.replacingOccurrences(
        of: networking, with: #""name": "Networking", "enabled": false, "path""#)
    }
    return (folder, try folder.write("plugins.json", text))
  }

  @Test func theDecoratorWrapsTheLiveClientAndTheMockAProfileChooses() throws {
    let (folder, manifest) = try sample()
    // The mock profile signs in with AuthMock, which calls no API.
    let calls = [
      "live": "Timing: 2 API calls timed (createSession, openIssues)\n",
      "mock": "Timing: 1 API call timed (openIssues)\n",
    ]
    for (profile, line) in calls {
      let run = try Subprocess.plugboard(["run", "--manifest", manifest, "--profile", profile])
      #expect(run.status == 0, "\(run.stderr)")
      #expect(run.stdout.contains(line), "\(profile)")
    }
    let debug = try Subprocess.plugboard(["run", "--manifest", manifest, "--log-level", "debug"])
    #expect(debug.stderr.contains("Timing: openIssues took "))
    _ = folder
  }

  @Test func listExplainAndGraphShowTheDecorator() throws {
    let (folder, manifest) = try sample()
    let list = try Subprocess.plugboard(["list", "--manifest", manifest])
    #expect(list.status == 0, "\(list.stderr)")
    #expect(
      list.stdout.contains(
        """
          AppContracts.APIClient  decorator "timing"  transient               Timing/TimingAssembly.swift:19
        """))
    let json = try Subprocess.plugboard(["list", "--json", "--manifest", manifest])
    let schemas = SchemaValidator(folder: BuildProducts.packageRoot + "/Docs/schemas")
    #expect(try schemas.violations(of: JSONParser.parse(json.stdout), against: "list.schema.json") == [])
    #expect(
      json.stdout.contains(#""decorator" : {"#)
        && json.stdout.contains(#""decorates" : "AppContracts.APIClient""#))
    let explain = try Subprocess.plugboard(["explain", "APIClient", "--manifest", manifest])
    #expect(
      explain.stdout.contains(
        """
          └─ APIClient decorator "timing" (wraps it)  [transient]  Timing/TimingAssembly.swift:19 in plugin Timing
        """))
    let graph = try Subprocess.plugboard(["graph", "--format", "json", "--manifest", manifest])
    #expect(try schemas.violations(of: JSONParser.parse(graph.stdout), against: "graph.schema.json") == [])
    #expect(graph.stdout.contains(#""kind" : "decorator""#))
    let dot = try Subprocess.plugboard(["graph", "--manifest", manifest])
    #expect(dot.stdout.contains(#"label="decorated by""#))
    let check = try Subprocess.plugboard(["check", "--manifest", manifest])
    #expect(check.status == 0, "\(check.stdout)")
    #expect(!check.stdout.contains("captive"))
    _ = folder
  }

  @Test func aManifestRuleLeavesTheDecoratorOut() throws {
    let (folder, manifest) = try sample(topLevel: #"{ "APIClient": { "exclude": ["Timing.*"] } }"#)
    let run = try Subprocess.plugboard(["run", "--manifest", manifest])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("Timing: 0 API calls timed ()\n"))
    _ = folder
  }

  @Test func aMisspeltDecoratorIsAProblemWithADidYouMean() throws {
    let (folder, manifest) = try sample(topLevel: #"{ "APIClient": { "exclude": ["timng"] } }"#)
    let check = try Subprocess.plugboard(["check", "--manifest", manifest])
    #expect(check.status == 1)
    #expect(
      check.stdout.contains(
        #"decorators.APIClient.exclude[0]: no decorator of AppContracts.APIClient is called "timng"; "#
          + #"did you mean "timing"?"#), "\(check.stdout)")
    let (other, unknown) = try sample(topLevel: #"{ "APIClent": { "exclude": ["timing"] } }"#)
    let second = try Subprocess.plugboard(["check", "--manifest", unknown])
    #expect(
      second.stdout.contains(
        #"decorators.APIClent: no plugin decorates a service called "APIClent"; did you mean "APIClient"?"#),
      "\(second.stdout)")
    _ = (folder, other)
  }

  @Test func aDecoratorWhoseTargetIsNotLoadedIsAWarning() throws {
    let (folder, manifest) = try sample(withoutNetworking: true)
    let check = try Subprocess.plugboard(["check", "--manifest", manifest])
    #expect(
      check.stdout.contains(
        "warning: decorator \"timing\" of APIClient decorates nothing: nothing registers APIClient in profile 'live'"
      ), "\(check.stdout)")
    let json = try Subprocess.plugboard(["check", "--json", "--manifest", manifest])
    let schemas = SchemaValidator(folder: BuildProducts.packageRoot + "/Docs/schemas")
    #expect(try schemas.violations(of: JSONParser.parse(json.stdout), against: "check.schema.json") == [])
    #expect(json.stdout.contains(#""kind" : "decoratorWithoutTarget""#))
    _ = folder
  }
}
