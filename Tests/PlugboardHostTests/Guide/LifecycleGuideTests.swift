import Foundation
import Testing

/// Docs/lifecycle.md shows only code that builds: each ```swift block is a
/// region of LifecycleSnippets.swift (compiled and run with these tests),
/// and every region is shown.
@Suite struct LifecycleGuideTests {
  private static let page = BuildProducts.packageRoot + "/Docs/lifecycle.md"
  private static let snippets =
    BuildProducts.packageRoot + "/Tests/PlugboardHostTests/Guide/LifecycleSnippets.swift"

  @Test func everySwiftBlockOfThePageIsCompiledCode() throws {
    let regions = MigrationGuideTests.regions(in: try String(contentsOfFile: Self.snippets, encoding: .utf8))
    #expect(regions.count == 3)
    let blocks = GuideTests.swiftBlocks(in: try String(contentsOfFile: Self.page, encoding: .utf8))
    #expect(Set(blocks) == Set(regions.values))
  }

  @Test func thePageIsLinkedFromTheReadme() throws {
    let text = try String(contentsOfFile: BuildProducts.packageRoot + "/README.md", encoding: .utf8)
    #expect(text.contains("(Docs/lifecycle.md)"))
  }
}
