import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// Attribution is the host's: a plugin that registers a decorator in the
/// Timing plugin's name (Tests/Plugins/Impersonator) is refused, and the
/// operator's rule for Timing's decorators does not let it in.
@Suite(.blocking) struct ImpersonationTests {
  /// The sample manifest with Timing after Shell, then the Impersonator
  /// (`optional` as given), and a rule keeping only Timing's decorators.
  private func sample(optional: Bool) throws -> (TemporaryDirectory, String) {
    let folder = try TemporaryDirectory()
    var text = try SampleManifest.textWithTiming(
      then: #" { "name": "Impersonator", "path": "\#(BuildProducts.library("Impersonator"))","#
        + #" "optional": \#(optional) },"#)
    text = text.replacingOccurrences(
      of: #""formatVersion": 1,"#,
      with: #""formatVersion": 1, "decorators": { "APIClient": { "include": ["Timing.*"] } },"#)
    return (folder, try folder.write("plugins.json", text))
  }

  private var refusal: String {
    "plugin 'Impersonator' (\(BuildProducts.library("Impersonator"))) tried to register in the name of "
      + "plugin 'Timing' (Container.attributing(to:)): only plugboard attributes registrations, each to "
      + "the plugin whose code made it, so its registrations stay its own and the plugin is refused — "
      + "remove the attributing(to:) call from its assemblies"
  }

  @Test func anOptionalImpersonatorIsLeftOutAndItsDecoratorNeverWraps() throws {
    let (folder, manifest) = try sample(optional: true)
    let run = try Subprocess.plugboard(["run", "--manifest", manifest])
    #expect(run.status == 0, "\(run.stderr)")
    // Plugin code's output may go to either stream.
    #expect(!(run.stdout + run.stderr).contains("Impersonator: wrapped the API client"), "\(run.stderr)")
    #expect(run.stdout.contains("Timing: 2 API calls timed (createSession, openIssues)\n"), "\(run.stdout)")
    #expect(run.stderr.contains(refusal), "\(run.stderr)")
    _ = folder
  }

  @Test func aRequiredImpersonatorFailsTheDeploymentAndListShowsNothingInTimingsName() throws {
    let (folder, manifest) = try sample(optional: false)
    let check = try Subprocess.plugboard(["check", "--manifest", manifest])
    #expect(check.status != 0)
    #expect(check.stdout.contains(refusal), "\(check.stdout)")
    let run = try Subprocess.plugboard(["run", "--manifest", manifest])
    #expect(run.status != 0)
    #expect(!(run.stdout + run.stderr).contains("Impersonator: wrapped the API client"), "\(run.stderr)")
    // What the Impersonator registered stays its own: Timing's listing
    // holds Timing's decorator alone.
    let json = try Subprocess.plugboard(["list", "--json", "--manifest", manifest])
    let listing = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let plugins = try #require(listing["plugins"] as? [[String: Any]])
    let timings = plugins.filter { $0["name"] as? String == "Timing" }
      .flatMap { $0["registrations"] as? [[String: Any]] ?? [] }.compactMap { $0["file"] as? String }
    #expect(timings.contains { $0.hasPrefix("Timing/") }, "\(json.stdout)")
    #expect(!timings.contains { $0.hasPrefix("Impersonator/") }, "\(json.stdout)")
    _ = folder
  }
}
