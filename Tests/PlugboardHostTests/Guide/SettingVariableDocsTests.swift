import Foundation
import PlugboardTestSupport
import Testing

/// Every `PLUGBOARD_CONFIG_` variable the pages show for the sample names
/// a setting the sample declares: a reader who copies the systemd unit of
/// Docs/operating.md, or a credential of Docs/configuration.md, gets a
/// setting, not a warning that it is ignored. Checked as that reader
/// would: `plugboard check` on the sample, with each variable set.
@Suite(.blocking) struct SettingVariableDocsTests {
  /// Each page, with the sections (`## ` or `### ` headings) that speak of
  /// the sample; nil for the whole page. Docs/configuration.md's other
  /// sections show the checking guide's Forecast plugin (with a misspelt
  /// variable on purpose) and a made-up plugin's name.
  private static let pages: [(path: String, sections: Set<String>?)] = [
    ("README.md", nil),
    ("Docs/operating.md", nil),
    (
      "Docs/configuration.md",
      ["From files: secrets, systemd credentials", "Listing, and secrets", "The sample"]
    ),
  ]

  /// The variables `text` shows, a `…_FILE` variable as the one it gives.
  private static func variables(in text: Substring) -> Set<String> {
    let names = text.matches(of: /PLUGBOARD_CONFIG_[A-Z0-9_]*[A-Z0-9]/).map { String($0.output) }
    return Set(names.map { $0.hasSuffix("_FILE") ? String($0.dropLast("_FILE".count)) : $0 })
  }

  /// The lines of `page` in the sections `sections` names (all of them for nil).
  private static func text(of page: String, sections: Set<String>?) -> Substring {
    guard let sections else { return page[...] }
    var inSection = false
    var kept: [Substring] = []
    for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
      if let heading = line.firstMatch(of: /^#{2,3} (.*)$/) {
        inSection = sections.contains(String(heading.1))
      }
      if inSection { kept.append(line) }
    }
    return kept.joined(separator: "\n")[...]
  }

  @Test func everyVariableThePagesShowForTheSampleNamesADeclaredSetting() throws {
    var shown: [String: Set<String>] = [:]
    for page in Self.pages {
      let text = try String(contentsOfFile: BuildProducts.packageRoot + "/" + page.path, encoding: .utf8)
      for variable in Self.variables(in: Self.text(of: text, sections: page.sections)) {
        shown[variable, default: []].insert(page.path)
      }
    }
    // The credentials section and the systemd unit name one at least.
    #expect(shown.values.contains { $0.contains("Docs/operating.md") })
    #expect(shown.values.contains { $0.contains("Docs/configuration.md") })
    let folder = try TemporaryDirectory()
    let manifest = try folder.write(
      "plugins.json", SampleManifest.text(analytics: try ThirdPartyBuild.analytics.get()))
    // A value every declared type reads: the type is not what is checked.
    let result = try Subprocess.plugboard(
      ["check", "--json", "--manifest", manifest], environment: shown.mapValues { _ in "1" })
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
    let reports = try #require(json["reports"] as? [[String: Any]])
    #expect(reports.count == 2)
    for report in reports {
      let stray = (report["findings"] as? [[String: Any]] ?? []).filter {
        $0["kind"] as? String == "unknownSettingVariable"
      }
      for finding in stray {
        let title = finding["title"] as? String ?? "?"
        let pages = shown.first { title.hasPrefix($0.key + " ") }?.value.sorted() ?? []
        Issue.record("\(pages.joined(separator: ", ")) show a variable the sample does not declare: \(title)")
      }
    }
  }
}
