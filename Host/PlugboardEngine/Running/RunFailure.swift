import PlugboardAnalysis

/// Why a deployment's application did not run, or failed: the refusals of
/// ``ApplicationLaunch`` and the application's own failure, as values that
/// render to the text `plugboard run` prints.
public enum RunFailure: Error, CustomStringConvertible {
  /// The manifest, a plugin or the profile's service choices failed; in
  /// the deployment's order. Nothing was resolved.
  case deploymentProblems([DeploymentProblem])
  /// The dependency graph has errors (the report has warnings too, and
  /// knows what plugins the profile left out would provide). Nothing was
  /// resolved.
  case brokenGraph(CheckReport)
  /// Resolving the `Application` threw (usually a `ResolutionError`);
  /// `hints` name the plugins the profile left out that register what was
  /// missing.
  case unresolvableApplication(any Error, hints: [String])
  /// A service's start hook threw, timed out, or was interrupted by
  /// `signal` (SIGINT or SIGTERM asking to stop); the services already
  /// started were stopped, in reverse, and the application was not run.
  case startFailed(ServiceLifecycle.StartError, signal: Int32?)
  /// The application ran and threw.
  case applicationFailed(any Error)

  /// `plugboard run`'s status for it: ``ExitStatus/runBroken`` (78) when
  /// the application was not started, ``ExitStatus/runStartFailed`` (69)
  /// when a start hook failed (128 + N when signal N interrupted it), 1
  /// when the application failed, as for any program that gives up.
  public var exitStatus: Int32 {
    switch self {
    case .deploymentProblems, .brokenGraph, .unresolvableApplication: ExitStatus.runBroken.rawValue
    case .startFailed(_, let signal): signal.map { 128 + $0 } ?? ExitStatus.runStartFailed.rawValue
    case .applicationFailed: ExitStatus.problems.rawValue
    }
  }

  /// The lines to print on standard error, each beginning with `prefix`,
  /// and those about running with `<command>: ` after it
  /// (`plugboard: run: `); a graph's findings are printed as
  /// `plugboard check` prints them.
  public func lines(prefix lead: String = "plugboard: ", command: String? = "run") -> [String] {
    let commandLead = command.map { "\(lead)\($0): " } ?? lead
    switch self {
    case .deploymentProblems(let problems):
      let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
      return problems.map { "\(lead)\($0)" } + [
        "\(lead)the deployment has \(count); the application was not run"
      ]
    case .brokenGraph(let report):
      let count = report.errors == 1 ? "1 error" : "\(report.errors) errors"
      return report.findings.filter { $0.severity == .error }.flatMap { $0.lines + [""] } + [
        "\(commandLead)the dependency graph has \(count); the application was not run "
          + "(plugboard check shows the whole report)"
      ]
    case .unresolvableApplication(let error, let hints):
      return ["\(commandLead)cannot resolve the Application to run:", "\(error)"]
        + hints.map { commandLead + $0 }
    case .startFailed(let error, _):
      let count = error.stopped.count == 1 ? "1 service" : "\(error.stopped.count) services"
      let stopped = error.stopped.isEmpty ? "" : "stopped the \(count) already started; "
      return ["\(commandLead)\(error.failure)"]
        + error.stopFailures.map { "\(commandLead)warning: \($0)" }
        + ["\(commandLead)\(stopped)the application was not run"]
    case .applicationFailed(let error):
      return ["\(commandLead)the application failed: \(error)"]
    }
  }

  public var description: String { lines().joined(separator: "\n") }
}
