import PlugboardKit

/// What is known about a plugin that was not loaded into this process.
package struct ProbeResult: Sendable, Equatable {
  package enum Outcome: Sendable, Equatable {
    /// The child loaded it and reported its registrations.
    case probed(ProbeReport)
    /// The child could not load it; the sentence says why.
    case failed(String)
  }

  package let entry: PluginEntry
  package let outcome: Outcome

  package init(entry: PluginEntry, outcome: Outcome) {
    self.entry = entry
    self.outcome = outcome
  }

  /// Its registrations, when the probe succeeded.
  package var registrations: [ProbeReport.Registration] {
    guard case .probed(let report) = outcome else { return [] }
    return report.registrations
  }

  /// The settings it declares, when the probe succeeded.
  package var settings: [SettingDeclaration] {
    guard case .probed(let report) = outcome else { return [] }
    return report.settings
  }
}
