extension PluginProbe {
  /// Probes every plugin of `deployment` that was not loaded (disabled, or
  /// left out by the profile), each on its own, in manifest order.
  /// Plugins that failed are not probed: they would fail the same way.
  package func probeUnloaded(of deployment: Deployment) -> [ProbeResult] {
    var known: [Int: ProbeResult] = [:]
    return probeUnloaded(of: deployment, known: &known)
  }

  /// As ``probeUnloaded(of:)``, reusing and adding to `known` (results by
  /// manifest index): what a plugin provides does not depend on the
  /// profile, so checking every profile probes each plugin once.
  package func probeUnloaded(of deployment: Deployment, known: inout [Int: ProbeResult]) -> [ProbeResult] {
    deployment.outcomes.compactMap { outcome in
      // A name-only entry no drop-in library reported has nothing to load.
      guard case .disabled(let entry) = outcome, !entry.path.isEmpty else { return nil }
      // Discovered plugins without an entry share the index -1: not cached.
      if entry.index >= 0, let result = known[entry.index] { return result }
      let result = probe(
        entry, of: deployment.manifest, progress: deployment.progress, settings: deployment.settings)
      if entry.index >= 0 { known[entry.index] = result }
      return result
    }
  }
}
