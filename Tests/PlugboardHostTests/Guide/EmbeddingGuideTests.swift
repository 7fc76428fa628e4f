import Foundation
import Testing

/// Docs/embedding.md shows only code that builds: each ```swift block is a
/// region of the example program Examples/EmbeddedHost/main.swift (built
/// with the package, run by ``EmbeddedHostTests``), and every region is
/// shown.
@Suite struct EmbeddingGuideTests {
  private static func read(_ path: String) throws -> String {
    try String(contentsOfFile: BuildProducts.packageRoot + "/" + path, encoding: .utf8)
  }

  /// The regions between `// guide: NAME` and `// end guide`, by name, as
  /// ``GuideTests/regions(in:)`` finds them but for markers indented
  /// inside a function, each region without the indentation its lines
  /// share.
  static func regions(in text: String) -> [String: String] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      let marker = line.drop { $0 == " " }
      return marker.hasPrefix("// guide: ") || marker == "// end guide" ? marker : line
    }
    return GuideTests.regions(in: lines.joined(separator: "\n")).mapValues(dedented)
  }

  /// `code` without the leading spaces all its non-empty lines share.
  static func dedented(_ code: String) -> String {
    let lines = code.split(separator: "\n", omittingEmptySubsequences: false)
    let indent = lines.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
    return lines.map { $0.dropFirst(min(indent, $0.count)) }.joined(separator: "\n")
  }

  @Test func everySwiftBlockIsARegionOfTheExample() throws {
    let regions = Self.regions(in: try Self.read("Examples/EmbeddedHost/main.swift"))
    #expect(regions.keys.sorted() == ["bring-up", "check", "run", "supervise"])
    let blocks = GuideTests.swiftBlocks(in: try Self.read("Docs/embedding.md"))
    for block in blocks {
      #expect(
        Set(regions.values).contains(block), "a swift block of embedding.md is not the example's:\n\(block)")
    }
    for (name, region) in regions {
      #expect(blocks.contains(region), "embedding.md does not show the region '\(name)'")
    }
  }

  @Test func findsIndentedRegions() {
    #expect(
      Self.regions(in: "f {\n  // guide: a\n  x {\n    y\n  }\n  // end guide\n}") == ["a": "x {\n  y\n}"])
  }

  /// The products the page tells a program to depend on exist, as it
  /// names them: the host's library, PlugboardKit's `.dynamic` one, and
  /// the contracts' (without which `import AppContracts` fails).
  @Test func theProductsThePageNamesExist() throws {
    let page = try Self.read("Docs/embedding.md")
    #expect(page.contains(#".product(name: "PlugboardEngine", package: "plugboard")"#))
    #expect(page.contains(#".product(name: "PlugboardKit", package: "Kit")"#))
    #expect(page.contains(#".package(path: "../plugboard/Plugins/Contracts")"#))
    #expect(page.contains(#".product(name: "AppContracts", package: "Contracts")"#))
    #expect(
      try Self.read("Plugins/Contracts/Package.swift").contains(
        #".library(name: "AppContracts", type: .dynamic"#))
    #expect(
      try Self.read("Package.swift").contains(
        #".library(name: "PlugboardEngine", targets: ["PlugboardEngine"])"#)
    )
    #expect(try Self.read("Kit/Package.swift").contains(#".library(name: "PlugboardKit", type: .dynamic"#))
  }

  @Test func thePageIsLinkedFromTheReadme() throws {
    #expect(try Self.read("README.md").contains("(Docs/embedding.md)"))
  }
}
