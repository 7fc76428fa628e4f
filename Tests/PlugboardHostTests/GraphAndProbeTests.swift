import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// `plugboard graph`'s output in the tools that draw it.
@Suite(.blocking) struct GraphAndProbeTests {
  /// Graphviz accepts the sample's DOT. Skipped without Graphviz, unless
  /// `PLUGBOARD_REQUIRE_TOOLS` names `dot` (`.ci/run` installs it and does).
  @Test(
    .enabled(
      if: ExternalTool.shouldRun("dot"),
      "needs Graphviz's dot, which is not on PATH (PLUGBOARD_REQUIRE_TOOLS=dot makes it required)"))
  func dotRendersTheSampleGraph() throws {
    try #require(Toolchain.find("dot") != nil, "PLUGBOARD_REQUIRE_TOOLS names dot, but dot is not on PATH")
    let analytics = try ThirdPartyBuild.analytics.get()
    let folder = try TemporaryDirectory()
    let manifest = try folder.write("plugins.json", SampleManifest.text(analytics: analytics))
    let graph = try Subprocess.plugboard(["graph", "--manifest", manifest])
    #expect(graph.status == 0)
    #expect(graph.stderr == "")
    let dot = try folder.write("sample.dot", graph.stdout)
    let svg = try Subprocess.run("/usr/bin/env", ["dot", "-Tsvg", dot])
    #expect(svg.stderr == "")
    #expect(svg.status == 0)
    #expect(svg.stdout.contains("<svg"))
    #expect(svg.stdout.contains("AuthService"))
  }

  /// The cycle's edges are drawn red and labelled, in DOT and Mermaid.
  @Test func theGraphHighlightsACycle() throws {
    let names = ["Keychain", "Auth", "CyclicAPI", "Login", "IssueList", "Shell"]
    let deployment = try CheckedDeployment(names.map { .built($0) })
    let dot = try Subprocess.plugboard(["graph", "--manifest", deployment.manifest])
    // The graph is printed, and the cycle fails the command as it fails check.
    #expect(dot.status == 1)
    #expect(
      dot.stderrLines == [
        "plugboard: graph: error: dependency cycle: AuthService → APIClient → AuthService",
        "plugboard: graph: the deployment has 1 error; 'plugboard check' shows the whole report",
      ])
    let cycleEdges = dot.stdout.split(separator: "\n").filter { $0.contains(#"label="cycle""#) }
    #expect(
      cycleEdges == [
        ##"  n1 -> n2 [color="#cc0000", penwidth=2.5, fontcolor="#cc0000", label="cycle"];"##,
        ##"  n2 -> n1 [color="#cc0000", penwidth=2.5, fontcolor="#cc0000", label="cycle"];"##,
      ])
    let mermaid = try Subprocess.plugboard([
      "graph", "--manifest", deployment.manifest, "--format", "mermaid",
    ])
    let lines = mermaid.stdout.split(separator: "\n").map(String.init)
    #expect(lines.filter { $0.contains("cycle") } == ["  n1 -- cycle --> n2", "  n2 -- cycle --> n1"])
    #expect(lines.last == "  linkStyle 0,2 stroke:#cc0000,stroke-width:3px")
  }
}
