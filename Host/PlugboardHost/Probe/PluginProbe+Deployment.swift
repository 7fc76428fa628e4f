extension PluginProbe {
  /// Probes every plugin of `deployment` that was not loaded (disabled, or
  /// left out by the profile), each on its own, in manifest order.
  /// Plugins that failed are not probed: they would fail the same way.
  public func probeUnloaded(of deployment: Deployment) -> [ProbeResult] {
    var known: [Int: ProbeResult] = [:]
    return probeUnloaded(of: deployment, known: &known)
  }

  /// As ``probeUnloaded(of:)``, reusing and adding to `known` (results by
  /// manifest index): what a plugin provides does not depend on the
  /// profile, so checking every profile probes each plugin once.
  public func probeUnloaded(of deployment: Deployment, known: inout [Int: ProbeResult]) -> [ProbeResult] {
    deployment.outcomes.compactMap { outcome in
      guard case .disabled(let entry) = outcome else { return nil }
      if let result = known[entry.index] { return result }
      let result = probe(entry, of: deployment.manifest)
      known[entry.index] = result
      return result
    }
  }
}
