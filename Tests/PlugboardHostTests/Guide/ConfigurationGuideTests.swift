import Foundation
import Testing

/// Docs/configuration.md shows only code that builds: each ```swift block
/// is, but for its import lines, a region of ConfigurationSnippets.swift
/// (compiled, and its test run, with these tests), and every region is shown.
@Suite struct ConfigurationGuideTests {
  @Test func everySwiftBlockOfThePageIsCompiledCode() throws {
    let root = BuildProducts.packageRoot
    let regions = GuideTests.regions(
      in: try String(
        contentsOfFile: root + "/Tests/PlugboardHostTests/Guide/ConfigurationSnippets.swift", encoding: .utf8)
    )
    #expect(regions.count == 4)
    let blocks = GuideTests.swiftBlocks(
      in: try String(contentsOfFile: root + "/Docs/configuration.md", encoding: .utf8))
    #expect(blocks.count == 4)
    for block in blocks {
      #expect(
        Set(regions.values).contains(block), "a swift block of the page is not compiled code:\n\(block)")
    }
  }
}
