import Foundation
import PlugboardKit
import PlugboardTestSupport
import Testing

/// A plugin's requirements (`requires:` on `PluginExport.descriptor`): the
/// host assembles in their order, stable otherwise, and refuses a missing
/// requirement, a version outside the range and a cycle, naming both
/// plugins. RequirerA (1.0.0) requires what `PLUGBOARD_TEST_REQUIRES_A`
/// lists; RequirerB (2.0.0) requires RequirerA 1.0.0..<2.0.0.
@Suite(.blocking) struct PluginRequirementTests {
  private static let fileA = BuildProducts.library("RequirerA")
  private static let fileB = BuildProducts.library("RequirerB")
  private static let healthy = BuildProducts.library("Healthy")

  private static func deployment(_ names: [String]) throws -> (TemporaryDirectory, String) {
    let folder = try TemporaryDirectory()
    let manifest = try folder.writeManifest(names.map { ($0, BuildProducts.library($0)) })
    return (folder, manifest)
  }

  private static func run(
    _ command: String, _ names: [String], requiresA: String? = nil, _ extra: [String] = []
  )
    throws -> ProcessResult
  {
    let (folder, manifest) = try deployment(names)
    defer { _ = folder }
    return try Subprocess.plugboard(
      [command, "--manifest", manifest] + extra,
      environment: requiresA.map { ["PLUGBOARD_TEST_REQUIRES_A": $0] } ?? [:])
  }

  @Test func pluginsAssembleAfterWhatTheyRequireAndCheckShowsWhy() throws {
    let names = ["RequirerB", "RequirerA", "Healthy"]
    let check = try Self.run("check", names, requiresA: "Healthy 0.0.1 1.0.0")
    #expect(check.status == 0)
    let lines = check.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(
      lines.dropFirst().first
        == "load order: Healthy, RequirerA (requires Healthy 0.0.1..<1.0.0), "
        + "RequirerB (requires RequirerA 1.0.0..<2.0.0)")
    let json = try Self.run("check", names, requiresA: "Healthy 0.0.1 1.0.0", ["--json"])
    let document = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let report = try #require((document["reports"] as? [[String: Any]])?.first)
    let order = try #require(report["loadOrder"] as? [[String: Any]])
    #expect(order.map { $0["plugin"] as? String } == ["Healthy", "RequirerA", "RequirerB"])
    #expect(
      order.map { $0["requires"] as? [String] } == [
        [], ["Healthy 0.0.1..<1.0.0"], ["RequirerA 1.0.0..<2.0.0"],
      ])
    let run = try Self.run("run", names, requiresA: "Healthy 0.0.1 1.0.0")
    #expect(run.status == 0)
    #expect(run.stdout == "Healthy is running\n")
  }

  /// In manifest order already, but a requirement holds: the text report
  /// shows the order and why; without requirements, it leaves it out.
  @Test func theOrderIsShownWhenARequirementTakesPart() throws {
    let check = try Self.run("check", ["RequirerA", "RequirerB", "Healthy"])
    #expect(check.status == 0)
    #expect(
      check.stdout.split(separator: "\n").filter { $0.hasPrefix("load order:") } == [
        "load order: RequirerA, RequirerB (requires RequirerA 1.0.0..<2.0.0), Healthy"
      ])
    let plain = try Self.run("check", ["RequirerA", "Healthy"])
    #expect(plain.status == 0)
    #expect(!plain.stdout.contains("load order:"))
  }

  @Test func aMissingRequirementNamesBothPlugins() throws {
    let run = try Self.run("run", ["RequirerB", "Healthy"])
    #expect(run.status == 78)
    #expect(
      run.stderrLines == [
        "plugboard: check requirements: plugin 'RequirerB' (\(Self.fileB)) requires plugin 'RequirerA' "
          + "(1.0.0..<2.0.0), which the deployment does not load: the manifest does not name it — add plugin "
          + "'RequirerA' to the manifest",
        "plugboard: the deployment has 1 problem; the application was not run",
      ])
  }

  @Test func aVersionOutsideTheRangeNamesBothPlugins() throws {
    let run = try Self.run("run", ["RequirerA", "Healthy"], requiresA: "Healthy 1.0.0 2.0.0")
    #expect(run.status == 78)
    #expect(
      run.stderrLines.first
        == "plugboard: check requirements: plugin 'RequirerA' (\(Self.fileA)) requires plugin 'Healthy' "
        + "(1.0.0..<2.0.0), but plugin 'Healthy' (\(Self.healthy)) is version 0.0.1 — use a version of "
        + "'Healthy' in that range, or update this plugin")
  }

  @Test func aCycleOfRequirementsNamesBothPlugins() throws {
    let run = try Self.run("run", ["RequirerA", "RequirerB", "Healthy"], requiresA: "RequirerB 2.0.0 3.0.0")
    #expect(run.status == 78)
    let links = "('RequirerA' requires RequirerB 2.0.0..<3.0.0, 'RequirerB' requires RequirerA 1.0.0..<2.0.0)"
    let tail = " — a cycle has no order to assemble in; remove one of the requirements"
    #expect(
      run.stderrLines == [
        "plugboard: check requirements: plugin 'RequirerA' (\(Self.fileA)) is in a cycle of requirements: it "
          + "requires plugin 'RequirerB' \(links)\(tail)",
        "plugboard: check requirements: plugin 'RequirerB' (\(Self.fileB)) is in a cycle of requirements: it "
          + "requires plugin 'RequirerA' \(links)\(tail)",
        "plugboard: the deployment has 2 problems; the application was not run",
      ])
  }

  @Test func aPluginRequiringARefusedOneIsRefusedToo() throws {
    let run = try Self.run("run", ["RequirerB", "RequirerA", "Healthy"], requiresA: "Ghost 1.0.0 2.0.0")
    #expect(run.status == 78)
    let refusedA =
      "plugin 'RequirerA' (\(Self.fileA)) requires plugin 'Ghost' (1.0.0..<2.0.0), which the deployment "
      + "does not load: the manifest does not name it — add plugin 'Ghost' to the manifest"
    #expect(
      run.stderrLines == [
        "plugboard: check requirements: plugin 'RequirerB' (\(Self.fileB)) requires plugin 'RequirerA' "
          + "(1.0.0..<2.0.0), which was refused: \(refusedA)",
        "plugboard: check requirements: \(refusedA)",
        "plugboard: the deployment has 2 problems; the application was not run",
      ])
  }

  @Test func semanticVersionsParseCompareAndFormRanges() {
    #expect(SemanticVersion(parsing: "1.10.0") == SemanticVersion(1, 10, 0))
    #expect(SemanticVersion(parsing: "2.0.0-beta+7") == SemanticVersion(2, 0, 0))
    #expect(SemanticVersion(parsing: "1.2") == nil)
    #expect(SemanticVersion(parsing: "v1.0.0") == nil)
    #expect(SemanticVersion(parsing: "1.0.9999999999") == nil)
    #expect(SemanticVersion(1, 9, 9) < SemanticVersion(1, 10, 0))
    let requirement = PluginRequirement.plugin("Networking", "1.0.0"..<"2.0.0")
    #expect(requirement.description == "Networking 1.0.0..<2.0.0")
    #expect(requirement.accepts(SemanticVersion(1, 4, 2)))
    #expect(!requirement.accepts(SemanticVersion(2, 0, 0)))
    #expect(!requirement.accepts(SemanticVersion(0, 9, 0)))
    let invalid = SemanticVersion(stringLiteral: "one")
    #expect(!invalid.isValid)
    #expect(PluginRequirement.plugin("X", invalid...).invalidBound == "one")
    #expect(PluginRequirement.plugin("X").description == "X")
  }
}
