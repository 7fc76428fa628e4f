import PlugboardAnalysis
import PlugboardEngine
import PlugboardKit

/// The errors `check` finds in a deployment, for the commands that show
/// its graph without checking it (`graph`, `explain`): they fail as `check`
/// does, so a script piping `graph` never takes a graph with a cycle or a
/// missing dependency for a healthy one.
enum GraphErrors {
  /// Reports on `console`'s stderr the deployment's load problems and each
  /// error `checker` finds, one line each, and a last line pointing to
  /// `check`. Returns the errors found besides load failures (the load
  /// problems are the deployment's `problems`); healthy when both are
  /// empty. Loads no plugin code: the checker's probes are whatever it was
  /// given.
  @discardableResult
  static func report(_ checker: DeploymentChecker, command: String, on console: any Console) -> [Finding] {
    let problems = checker.deployment.problems
    for problem in problems { console.err("plugboard: \(problem)") }
    let report = checker.check()
    // A plugin that failed is already reported, as a problem, just above.
    let errors = report.findings.filter { $0.severity == .error && $0.kind != .loadFailure }
    for finding in errors { console.err("plugboard: \(command): error: \(finding.title)") }
    guard !report.healthy || !problems.isEmpty else { return errors }
    let count = CheckReport.count(report.errors > 0 ? report.errors : problems.count, "error")
    console.err(
      "plugboard: \(command): the deployment has \(count); 'plugboard check' shows the whole report")
    return errors
  }
}
