import Foundation
import PlugboardTestSupport
import Testing

/// The embedding API seen from a package of its own, as a team embedding
/// the host sees it: the `PlugboardEngine` product builds and runs the
/// sample, and the `plugboard` executable's own declarations are out of
/// reach (`package` access).
@Suite(.serialized, .blocking) struct ExternalEmbedderTests {
  @Test func aProgramInAnotherPackageRunsTheSample() throws {
    let built = try ExternalEmbedderBuild.built.get()
    let analytics = try ThirdPartyBuild.analytics.get()
    let folder = try TemporaryDirectory()
    let manifest = try folder.write("plugins.json", SampleManifest.text(analytics: analytics))
    let result = try Subprocess.run(built.executable, [manifest, "mock"])
    #expect(result.exited && result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first == "outside: profile mock, 7 plugins loaded")
    #expect(lines.dropFirst().first == "outside: check healthy, 0 errors")
    #expect(lines.contains("[fixture] Open issues (2):"))
    #expect(lines.last == "outside: the application ended with status 0")
  }

  @Test func theExecutablesOwnDeclarationsAreOutOfReach() throws {
    let built = try ExternalEmbedderBuild.built.get()
    guard let swiftc = Toolchain.find("swiftc") else {
      Issue.record("no swiftc on PATH")
      return
    }
    let fixtures = BuildProducts.packageRoot + "/Tests/Fixtures/OutsideEmbedder/"
    func typecheck(_ file: String) throws -> ProcessResult {
      try Subprocess.run(
        swiftc, ["-typecheck", "-swift-version", "6"] + built.moduleSearchPaths + [fixtures + file])
    }
    // The same flags accept the embedder's own code, so what fails below
    // fails for its access level, not for a module not found.
    #expect(try typecheck("main.swift").status == 0)
    let result = try typecheck("reaches-inside.swift")
    #expect(result.status != 0)
    let errors = result.stderr.split(separator: "\n").filter { $0.contains(".swift:") }.compactMap { line in
      line.split(separator: "error: ", maxSplits: 1).dropFirst().first.map(String.init)
    }
    #expect(
      errors == [
        "cannot find 'PluginLoader' in scope", "cannot find type 'Manifest' in scope",
        "cannot find 'Plugboard' in scope",
      ])
  }
}
