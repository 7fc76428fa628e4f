extension Deployment {
  /// The failures of plugins the manifest marks `"optional": true`, in
  /// manifest order: the deployment runs without them, and `run` and
  /// `check` report each as a warning.
  package var optionalFailures: [(entry: PluginEntry, problem: DeploymentProblem)] {
    outcomes.compactMap { outcome in
      guard case .failed(let entry, let problem) = outcome, entry.optional else { return nil }
      return (entry, problem)
    }
  }

  /// What `run` prints on standard error for an optional plugin that
  /// failed: `optional plugin 'Analytics' is missing, the application runs
  /// without it: <problem>`.
  package static func optionalWarning(_ entry: PluginEntry, _ problem: DeploymentProblem) -> String {
    "warning: optional plugin '\(entry.name)' is missing, the application runs without it: \(problem)"
  }
}
