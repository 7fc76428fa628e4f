import Foundation
import PlugboardTestSupport
import Testing

/// The speed figures README.md quotes are those of BENCHMARKS.md's latest
/// full run. README's "Speed" section quotes figures only in its table,
/// each row naming its scenario (`` `graph10_transient` ``); every number
/// in the row's figure cells must appear in that scenario's row of the
/// latest results table. Rerunning the benchmark and updating BENCHMARKS.md
/// without the README (or quoting a figure from another run) fails here.
@Suite struct ReadmeSpeedTests {
  /// The lines of `document` from the heading that starts with `heading`
  /// to the next heading of the same or a higher level.
  private func section(_ heading: String, of document: String) throws -> [Substring] {
    let text = try String(contentsOfFile: BuildProducts.packageRoot + "/" + document, encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let start = try #require(
      lines.firstIndex { $0.hasPrefix(heading) }, "\(document) has no heading starting \"\(heading)\"")
    let level = heading.prefix { $0 == "#" }.count
    let rest = lines[(start + 1)...]
    let end =
      rest.firstIndex { line in
        let hashes = line.prefix { $0 == "#" }.count
        return hashes > 0 && hashes <= level && line.dropFirst(hashes).hasPrefix(" ")
      } ?? lines.endIndex
    return Array(lines[(start + 1)..<end])
  }

  /// A Markdown table row's cells, trimmed; nil for a line that is not a
  /// row or is the header's rule.
  private func cells(_ line: Substring) -> [String]? {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    guard trimmed.hasPrefix("|"), trimmed.hasSuffix("|") else { return nil }
    let cells = trimmed.dropFirst().dropLast().split(separator: "|", omittingEmptySubsequences: false)
      .map { $0.trimmingCharacters(in: .whitespaces) }
    if cells.allSatisfy({ $0.allSatisfy { "-: ".contains($0) } }) { return nil }
    return cells
  }

  /// The numbers written in `text`: `370`, `1.22`, `0.26` (thousands
  /// separators dropped, so `2,128,117` is `2128117`).
  private func numbers(_ text: String) -> [String] {
    text.replacing(#/(\d),(\d{3})/#) { "\($0.1)\($0.2)" }
      .matches(of: #/\d+(?:\.\d+)?/#).map { String($0.output) }
  }

  /// A figure with its unit, as prose would quote one: `14 ms`, `1.36×`.
  private static var figure: Regex<Substring> { #/\d+(?:\.\d+)?\s*(?:ms|ns|µs|×)/# }

  /// The latest full run's table: each scenario's cells after the first.
  private func latestRun() throws -> [String: [String]] {
    var rows: [String: [String]] = [:]
    for line in try section("### The latest full run", of: "BENCHMARKS.md") {
      guard let cells = cells(line), let scenario = cells.first, scenario != "scenario" else { continue }
      rows[scenario] = Array(cells.dropFirst())
    }
    return rows
  }

  @Test func everyFigureOfTheSpeedTableIsInTheLatestRun() throws {
    let latest = try latestRun()
    try #require(!latest.isEmpty, "BENCHMARKS.md's latest full run has no table")
    var quoted = 0
    for line in try section("## Speed", of: "README.md") {
      guard let cells = cells(line), cells.count >= 3, cells[1].hasPrefix("`") else { continue }
      let scenario = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
      let row = try #require(
        latest[scenario], "README quotes \(scenario), which BENCHMARKS.md's latest run lacks")
      let measured = Set(row.flatMap(numbers))
      for number in cells.dropFirst(2).flatMap(numbers) {
        #expect(
          measured.contains(number),
          "README quotes \(number) for \(scenario); BENCHMARKS.md's latest run has \(row.joined(separator: " | "))"
        )
        quoted += 1
      }
    }
    #expect(quoted > 0, "README's Speed table quotes no scenario")
  }

  /// A figure in prose, or in a row that names no scenario, would escape
  /// the comparison above.
  @Test func theSpeedSectionQuotesFiguresOnlyInRowsNamingTheirScenario() throws {
    for line in try section("## Speed", of: "README.md") where line.contains(Self.figure) {
      let scenario = cells(line).map { $0.count >= 2 && $0[1].hasPrefix("`") } ?? false
      #expect(scenario, "a figure in README's Speed section outside a row naming its scenario: \(line)")
    }
  }
}
