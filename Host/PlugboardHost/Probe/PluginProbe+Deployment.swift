extension PluginProbe {
  /// Probes every plugin of `deployment` that was not loaded (disabled, or
  /// left out by the profile), one child process each, in manifest order.
  /// Plugins that failed are not probed: a child would fail the same way.
  public func probeUnloaded(of deployment: Deployment) -> [ProbeResult] {
    deployment.outcomes.compactMap { outcome in
      guard case .disabled(let entry) = outcome else { return nil }
      return probe(entry, of: deployment.manifest)
    }
  }
}
