import PlugboardKit

/// What is known about a plugin that was not loaded into this process.
public struct ProbeResult: Sendable, Equatable {
  public enum Outcome: Sendable, Equatable {
    /// The child loaded it and reported its registrations.
    case probed(ProbeReport)
    /// The child could not load it; the sentence says why.
    case failed(String)
  }

  public let entry: PluginEntry
  public let outcome: Outcome

  public init(entry: PluginEntry, outcome: Outcome) {
    self.entry = entry
    self.outcome = outcome
  }

  /// Its registrations, when the probe succeeded.
  public var registrations: [ProbeReport.Registration] {
    guard case .probed(let report) = outcome else { return [] }
    return report.registrations
  }

  /// The settings it declares, when the probe succeeded.
  public var settings: [SettingDeclaration] {
    guard case .probed(let report) = outcome else { return [] }
    return report.settings
  }
}
