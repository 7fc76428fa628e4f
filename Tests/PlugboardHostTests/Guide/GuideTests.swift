import Foundation
import PlugboardTestSupport
import Testing

/// Docs/writing-a-plugin.md shows only code that builds: each ```swift
/// block is, but for its import lines, a region of GuideSnippets.swift
/// (compiled with these tests) or a file `plugboard new` writes (built by
/// ``NewCommandTests``), and every region is shown.
@Suite(.blocking) struct GuideTests {
  private static let guide = BuildProducts.packageRoot + "/Docs/writing-a-plugin.md"
  private static let snippets =
    BuildProducts.packageRoot + "/Tests/PlugboardHostTests/Guide/GuideSnippets.swift"

  /// The regions between `// guide: NAME` and `// end guide`, by name.
  static func regions(in text: String) -> [String: String] {
    var regions: [String: String] = [:]
    var current: (name: String, lines: [String])?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("// guide: ") {
        current = (String(line.dropFirst("// guide: ".count)), [])
      } else if line == "// end guide", let region = current {
        regions[region.name] = region.lines.joined(separator: "\n")
        current = nil
      } else {
        current?.lines.append(String(line))
      }
    }
    return regions
  }

  /// The Markdown's ```swift blocks, each without its leading import lines
  /// and the blank lines after them.
  static func swiftBlocks(in markdown: String) -> [String] {
    var blocks: [String] = []
    var current: [String]?
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line == "```swift" {
        current = []
      } else if let lines = current, line == "```" {
        blocks.append(withoutImports(lines.joined(separator: "\n")))
        current = nil
      } else {
        current?.append(String(line))
      }
    }
    return blocks
  }

  /// `code` without its leading import lines and the blank lines after them.
  static func withoutImports(_ code: String) -> String {
    code.split(separator: "\n", omittingEmptySubsequences: false)
      .drop { $0.hasPrefix("import ") || $0.hasPrefix("@testable import ") || $0.isEmpty }
      .joined(separator: "\n")
  }

  /// The files of `plugboard new Weather --path Plugins/ThirdParty/Weather`
  /// run in a checkout's root, as the guide does.
  private func scaffold() throws -> [String] {
    let folder = try TemporaryDirectory()
    try folder.writeCheckoutLayout()
    let result = try Subprocess.plugboard(
      ["new", "Weather", "--path", "Plugins/ThirdParty/Weather"], in: folder.path)
    try #require(result.status == 0, "\(result.stderr)")
    return try ["Package.swift", "Sources/Weather/WeatherPlugin.swift"].map {
      try String(contentsOfFile: folder.path + "/Plugins/ThirdParty/Weather/" + $0, encoding: .utf8)
        .trimmingCharacters(in: .newlines)
    }.map(Self.withoutImports)
  }

  @Test func everySwiftBlockOfTheGuideIsCompiledCode() throws {
    let regions = Self.regions(in: try String(contentsOfFile: Self.snippets, encoding: .utf8))
    #expect(regions.count == 13)
    let compiled = Set(regions.values).union(try scaffold())
    let blocks = Self.swiftBlocks(in: try String(contentsOfFile: Self.guide, encoding: .utf8))
    for block in blocks {
      #expect(compiled.contains(block), "a swift block of the guide is not compiled code:\n\(block)")
    }
    for (name, region) in regions {
      #expect(blocks.contains(region), "the guide does not show the region '\(name)'")
    }
  }

  @Test func theGuideIsLinkedFromTheReadmeAndThePluginsPage() throws {
    for page in ["README.md", "Docs/plugins.md"] {
      let text = try String(contentsOfFile: BuildProducts.packageRoot + "/" + page, encoding: .utf8)
      #expect(text.contains("writing-a-plugin.md)"), "\(page) does not link the guide")
    }
  }

  /// plugin-reference.md's example assembly is the sample's, which checks clean
  /// (only its doc comment and the block's file-name line are left out).
  @Test func thePluginsPageShowsTheRealAnalyticsAssembly() throws {
    let page = try String(
      contentsOfFile: BuildProducts.packageRoot + "/Docs/plugin-reference.md", encoding: .utf8)
    let source = try String(
      contentsOfFile: BuildProducts.packageRoot
        + "/Plugins/ThirdParty/Analytics/Sources/Analytics/AnalyticsAssembly.swift", encoding: .utf8)
    let expected = source.split(separator: "\n").filter { !$0.hasPrefix("///") }.joined(separator: "\n")
    let shown = page.components(separatedBy: "```swift\n// Sources/Analytics/AnalyticsAssembly.swift\n")
      .dropFirst().first?.components(separatedBy: "\n```").first
    #expect(shown?.split(separator: "\n").joined(separator: "\n") == expected)
  }

  @Test func findsRegionsAndBlocks() {
    #expect(Self.regions(in: "x\n// guide: a\none\ntwo\n// end guide\ny") == ["a": "one\ntwo"])
    #expect(Self.swiftBlocks(in: "```swift\nimport A\n\ncode\n```\n```sh\nls\n```") == ["code"])
  }
}
