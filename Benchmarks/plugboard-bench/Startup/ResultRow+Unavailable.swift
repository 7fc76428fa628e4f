extension ResultRow {
  /// A row for a scenario that could not be measured, or was skipped: the
  /// reason takes the target's place, so the table says why it is empty.
  static func unavailable(_ scenario: String, unit: String, reason: String) -> ResultRow {
    ResultRow(
      scenario: scenario, unit: unit, plugboard: Measurement(samples: [.nan]), baseline: nil,
      baselineName: "-", target: reason, met: nil)
  }
}
