import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// `list --json`'s statuses and `kit` field as the code writes them, the
/// schema allows them and Docs/commands.md lists them: a status the code
/// gained and the documents lack (as `excluded` once was) fails here.
@Suite struct ListDocumentAgreementTests {
  private static let root = BuildProducts.packageRoot

  private static func schema(_ name: String) throws -> JSONValue {
    try JSONParser.parse(String(contentsOfFile: root + "/Docs/schemas/" + name, encoding: .utf8))
  }

  private static func strings(_ value: JSONValue?) -> [String] {
    guard case .array(let items)? = value else { return [] }
    return items.compactMap { item in
      guard case .string(let text) = item else { return nil }
      return text
    }
  }

  /// The paragraph of Docs/commands.md that describes `list`.
  private static func listParagraph() throws -> String {
    let text = try String(contentsOfFile: root + "/Docs/commands.md", encoding: .utf8)
    let start = try #require(text.range(of: "- `list` prints"))
    let rest = text[start.lowerBound...]
    let end = rest.range(of: "\n\n")?.lowerBound ?? rest.endIndex
    return String(rest[..<end])
  }

  @Test func everyStatusIsInTheSchemaAndTheDocs() throws {
    let plugin = try Self.schema("list.schema.json")["properties"]?["plugins"]?["items"]?["properties"]
    let code = DeploymentListing.Status.allCases.map(\.rawValue)
    #expect(Self.strings(plugin?["status"]?["enum"]).sorted() == code.sorted())
    let paragraph = try Self.listParagraph()
    for status in code {
      #expect(paragraph.contains("`\(status)`"), "Docs/commands.md's list does not name status \(status)")
    }
  }

  /// A loaded plugin's `kit` says `same` or `older`: the only names an
  /// accepted compatibility has, and the ones the schema and docs allow.
  @Test func theKitFieldsCompatibilitiesAreTheAcceptedOnes() throws {
    let kit = try Self.schema("common.schema.json")["$defs"]?["pluginKit"]
    let accepted = [KitCompatibility.same, .older, .newerMinor, .otherMajor, .unreadable]
      .filter(\.isAccepted).map(\.name)
    #expect(Self.strings(kit?["properties"]?["compatibility"]?["enum"]) == accepted)
    let paragraph = try Self.listParagraph()
    #expect(paragraph.contains("`kit` with `version` and\n  `compatibility` = `same` | `older`"))
    for name in accepted { #expect(paragraph.contains("`\(name)`")) }
  }
}
