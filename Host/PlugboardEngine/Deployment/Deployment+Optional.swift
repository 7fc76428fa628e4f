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

  /// What `run` and `list` print on standard error for an optional plugin
  /// that failed: `optional plugin 'Analytics' is missing, the application
  /// runs without it: <problem>` when its file is not there, `… failed, …`
  /// when it was refused or broke at a later stage.
  package static func optionalWarning(_ entry: PluginEntry, _ problem: DeploymentProblem) -> String {
    let what = problem.stage == .locate ? "is missing" : "failed"
    return "warning: optional plugin '\(entry.name)' \(what), the application runs without it: \(problem)"
  }
}
