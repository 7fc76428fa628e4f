/// What became of one manifest entry.
package enum PluginOutcome {
  case loaded(LoadedPlugin)
  /// `"enabled": false` in the manifest: listed, not loaded.
  case disabled(PluginEntry)
  case failed(PluginEntry, DeploymentProblem)

  package var entry: PluginEntry {
    switch self {
    case .loaded(let plugin): plugin.entry
    case .disabled(let entry), .failed(let entry, _): entry
    }
  }
}
