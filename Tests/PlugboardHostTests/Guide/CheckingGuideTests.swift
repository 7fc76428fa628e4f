import Foundation
import Testing

/// Docs/checking.md shows only code that builds: each ```swift block is a
/// region of CheckingSnippets.swift (compiled and run with these tests),
/// and every region is shown.
@Suite struct CheckingGuideTests {
  private static let page = BuildProducts.packageRoot + "/Docs/checking.md"
  private static let snippets =
    BuildProducts.packageRoot + "/Tests/PlugboardHostTests/Guide/CheckingSnippets.swift"

  @Test func everySwiftBlockOfThePageIsCompiledCode() throws {
    let regions = MigrationGuideTests.regions(in: try String(contentsOfFile: Self.snippets, encoding: .utf8))
    #expect(regions.count == 2)
    let blocks = GuideTests.swiftBlocks(in: try String(contentsOfFile: Self.page, encoding: .utf8))
    #expect(Set(blocks) == Set(regions.values))
  }
}
