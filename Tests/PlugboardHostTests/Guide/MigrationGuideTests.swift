import Foundation
import Testing

/// Docs/migrating-from-swinject.md shows only code that builds: each
/// ```swift block is a region of MigrationSnippets.swift (compiled and run
/// with these tests), without the region's common indentation, and every
/// region is shown. Reuses ``GuideTests``' region and block readers.
@Suite struct MigrationGuideTests {
  private static let guide = BuildProducts.packageRoot + "/Docs/migrating-from-swinject.md"
  private static let snippets =
    BuildProducts.packageRoot + "/Tests/PlugboardHostTests/Guide/MigrationSnippets.swift"

  /// `code` with the indentation its non-empty lines share removed.
  static func dedented(_ code: String) -> String {
    let lines = code.split(separator: "\n", omittingEmptySubsequences: false)
    let indent = lines.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
    return lines.map { String($0.dropFirst(indent)) }.joined(separator: "\n")
  }

  /// ``GuideTests/regions(in:)``, also for markers indented inside a test
  /// function, each region dedented.
  static func regions(in text: String) -> [String: String] {
    let markersOutdented = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      let trimmed = line.drop { $0 == " " }
      return trimmed.hasPrefix("// guide: ") || trimmed == "// end guide" ? trimmed : line
    }
    return GuideTests.regions(in: markersOutdented.joined(separator: "\n")).mapValues(dedented)
  }

  @Test func everySwiftBlockOfTheGuideIsCompiledCode() throws {
    let regions = Self.regions(in: try String(contentsOfFile: Self.snippets, encoding: .utf8))
    #expect(regions.count == 17)
    let blocks = GuideTests.swiftBlocks(in: try String(contentsOfFile: Self.guide, encoding: .utf8))
    for block in blocks {
      #expect(
        Set(regions.values).contains(block), "a swift block of the guide is not compiled code:\n\(block)")
    }
    for (name, region) in regions {
      #expect(blocks.contains(region), "the guide does not show the region '\(name)'")
    }
  }

  @Test func theGuideIsLinkedFromTheReadme() throws {
    let text = try String(contentsOfFile: BuildProducts.packageRoot + "/README.md", encoding: .utf8)
    #expect(text.contains("migrating-from-swinject.md)"))
  }

  @Test func dedentsByTheSharedIndentation() {
    #expect(Self.dedented("    a\n\n      b") == "a\n\n  b")
    #expect(Self.regions(in: "  // guide: a\n    one\n  // end guide") == ["a": "one"])
  }
}
