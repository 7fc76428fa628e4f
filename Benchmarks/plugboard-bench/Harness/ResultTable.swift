import Foundation

/// One line of the benchmark's output: a scenario, its baseline, and the
/// target it is held to.
struct ResultRow: Codable {
  let scenario: String
  let unit: String
  let plugboard: Measurement
  let baseline: Measurement?
  let baselineName: String
  /// The target as text, and whether the median meets it.
  let target: String
  let met: Bool?

  var ratio: Double? { baseline.map { plugboard.median / $0.median } }
  /// The ratio of the minimums: what an outside harness reporting the
  /// fastest of several quiet passes compares. On a loaded machine the
  /// baseline's median swells more than the container's (a short
  /// operation is hit by more of the interference), which pulled the
  /// median ratio of the ten-object graph down to 1.4–1.8× where the
  /// minimums gave 2.2–2.5×, measured in the same runs.
  var minimumRatio: Double? { baseline.map { plugboard.minimum / $0.minimum } }
}

enum ResultTable {
  static func render(_ rows: [ResultRow]) -> String {
    let header = [
      "scenario", "unit", "median", "min", "baseline", "base median", "base min", "ratio", "min ratio",
      "target", "met",
    ]
    let body = rows.map { row -> [String] in
      [
        row.scenario, row.unit, format(row.plugboard.median), format(row.plugboard.minimum),
        row.baselineName, row.baseline.map { format($0.median) } ?? "-",
        row.baseline.map { format($0.minimum) } ?? "-",
        row.ratio.map { format($0) + "×" } ?? "-", row.minimumRatio.map { format($0) + "×" } ?? "-",
        row.target,
        row.met.map { $0 ? "yes" : "NO" } ?? "-",
      ]
    }
    let table = [header] + body
    let widths = header.indices.map { column in table.map { $0[column].count }.max() ?? 0 }
    func line(_ cells: [String]) -> String {
      "| "
        + zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
        .joined(separator: " | ") + " |"
    }
    let separator = "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|"
    return ([line(header), separator] + body.map(line)).joined(separator: "\n")
  }

  static func format(_ value: Double) -> String {
    if !value.isFinite { return "-" }
    if value >= 100 { return String(Int(value.rounded())) }
    if value >= 10 { return String(format: "%.1f", value) }
    return String(format: "%.2f", value)
  }
}
