import PlugboardEngine

/// `manifest_read_*`: reading a manifest of 10⁴, 10⁵ and 10⁶ plugin entries
/// (`--quick`: 10⁴ only) with `ManifestReader.decode`, the parse and decode
/// `plugboard` runs on the file it read. The text is generated in memory,
/// so no disk is timed. Reading should cost the same per entry at every
/// size: a per-entry time that grows with the size is a quadratic step.
struct ManifestScenarios {
  let plan: MeasurementPlan
  let quick: Bool

  static let sizes = [10_000, 100_000, 1_000_000]

  func run() -> [ResultRow] {
    var rows: [ResultRow] = []
    var reference: (size: Int, perEntry: Measurement)?
    for size in quick ? [Self.sizes[0]] : Self.sizes {
      let scenario = "manifest_read_\(Self.label(size))"
      let text = ManifestText.generate(entries: size)
      let milliseconds: Measurement
      switch time(text, entries: size) {
      case .failure(let reason):
        rows.append(.unavailable(scenario, unit: "ms", reason: "error: \(reason)"))
        continue
      case .success(let measured): milliseconds = measured
      }
      let perEntry = Measurement(samples: milliseconds.samples.map { $0 * 1e6 / Double(size) })
      rows.append(
        ResultRow(
          scenario: scenario, unit: "ms", plugboard: milliseconds, baseline: nil, baselineName: "-",
          target: "measured (\(ResultTable.format(Double(text.count) / 1e6)) MB of text)", met: nil))
      if let reference {
        let ratio = perEntry.median / reference.perEntry.median
        rows.append(
          ResultRow(
            scenario: scenario + "_per_entry", unit: "ns/entry", plugboard: perEntry,
            baseline: reference.perEntry, baselineName: "per entry at \(Self.label(reference.size))",
            target: "≤ 2× baseline", met: ratio <= 2))
      } else {
        reference = (size, perEntry)
        rows.append(
          ResultRow(
            scenario: scenario + "_per_entry", unit: "ns/entry", plugboard: perEntry, baseline: nil,
            baselineName: "-", target: "the reference", met: nil))
      }
    }
    return rows
  }

  /// Milliseconds per reading, one reading per repetition (the largest
  /// takes about a second); or why the generated manifest was refused.
  private func time(_ text: [UInt8], entries: Int) -> Result<Measurement, BenchFailure> {
    var samples: [Double] = []
    for _ in 0..<max(plan.repetitions, 1) {
      let start = now()
      let result = ManifestReader.decode(text, path: "/bench/plugins.json")
      let elapsed = Double(now() - start) / 1e6
      // Checked outside the clock; freeing the manifest is left out too,
      // as plugboard keeps it until it exits.
      switch result {
      case .success(let manifest) where manifest.plugins.count == entries:
        samples.append(elapsed)
      case .success(let manifest):
        return .failure(BenchFailure("read \(manifest.plugins.count) of \(entries) entries"))
      case .failure(let error):
        return .failure(BenchFailure(error.lines.prefix(3).joined(separator: "; ")))
      }
    }
    return .success(Measurement(samples: samples))
  }

  /// `1e4`, `1e5`, `1e6`.
  private static func label(_ size: Int) -> String {
    var exponent = 0
    var rest = size
    while rest >= 10, rest % 10 == 0 {
      rest /= 10
      exponent += 1
    }
    return rest == 1 ? "1e\(exponent)" : String(size)
  }
}
