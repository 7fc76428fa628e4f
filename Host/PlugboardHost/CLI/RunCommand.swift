import PlugboardKit

/// `plugboard run`: bring the deployment up and, only if it is healthy,
/// resolve its `Application` and run it with the arguments after `--`.
///
/// A deployment with problems is not run at all: half an application,
/// missing the plugins that failed, is worse than a clear refusal. The
/// same holds for a graph that cannot work: before resolving anything,
/// `run` validates the whole dependency graph, as .NET's `ValidateOnBuild`
/// does, with the checker behind `plugboard check` (minus its probes of
/// plugins that are not loaded). Errors stop
/// the run; warnings are left to `plugboard check`.
///
/// Exit status: the application's own once it started (1 when it throws);
/// before that, plugboard's own, distinct from an application's (see
/// ``ExitStatus``): 78 for a broken deployment, 64 for misuse, 70 for a
/// crash plugboard cannot set aside.
struct RunCommand {
  let options: ParsedOptions
  let console: any Console

  func execute() async -> ExitStatus.RawValue {
    let request = DeploymentRequest(options: options, command: CommandSpec.run.name)
    let deployment: Deployment
    switch request.bringUp() {
    case .success(let brought): deployment = brought
    case .failure(.manifest(let error)):
      Progress.report(.reporting)
      report(error.problems)
      return ExitStatus.runBroken.rawValue
    case .failure(let failure):
      return request.report(failure, on: console)
    }
    guard deployment.problems.isEmpty else {
      Progress.report(.reporting)
      report(deployment.problems)
      return ExitStatus.runBroken.rawValue
    }
    Progress.report(.stage(.validate, plugin: nil, file: nil))
    var validation = DeploymentChecker(deployment).check()
    guard validation.healthy else {
      // What a disabled or left-out plugin would have provided is learnt by
      // loading it (plugin code), so before the report, while the
      // supervisor still times it; the findings then name the plugin, as
      // check's do, instead of saying nothing registers the service.
      let probes = PluginProbe().probeUnloaded(of: deployment)
      if !probes.isEmpty { validation = DeploymentChecker(deployment, probes: probes).check() }
      Progress.report(.reporting)
      for finding in validation.findings where finding.severity == .error {
        for line in finding.lines { console.err(line) }
        console.err("")
      }
      let count = validation.errors == 1 ? "1 error" : "\(validation.errors) errors"
      console.err(
        "plugboard: run: the dependency graph has \(count); the application was not run "
          + "(plugboard check shows the whole report)")
      return ExitStatus.runBroken.rawValue
    }
    // Warnings are check's to report, but one plugin silently replacing
    // another's registration changes what the application gets.
    for finding in validation.findings where finding.kind == .duplicateRegistration {
      console.err("plugboard: run: warning: \(finding.title)")
    }
    let application: any Application
    Progress.report(.stage(.resolveApplication, plugin: nil, file: nil))
    do {
      application = try deployment.container.resolve((any Application).self)
    } catch {
      let hints = profileHints(for: error, in: deployment)
      Progress.report(.reporting)
      console.err("plugboard: run: cannot resolve the Application to run:")
      console.err("\(error)")
      for hint in hints { console.err(hint) }
      return ExitStatus.runBroken.rawValue
    }
    // Start hooks count as running: they are bounded by their own
    // limit (hookTimeout), not the stage limit, and their output is the
    // application's (see ApplicationSession and Docs/lifecycle.md).
    Progress.report(.running)
    // The flag was checked before anything ran (Plugboard.main).
    let lifecycle = ServiceLifecycle(
      deployment: deployment, limit: options.values[OptionSpec.hookTimeout.name].flatMap(StageTimeout.parse))
    return await ApplicationSession(
      lifecycle: lifecycle, application: application, arguments: options.passthrough, console: console
    ).run()
  }

  /// When what is missing would come from a plugin the profile left out,
  /// says so: the fix is usually the profile, not the code.
  private func profileHints(for error: any Error, in deployment: Deployment) -> [String] {
    guard let resolution = error as? ResolutionError, case .notRegistered = resolution.kind else { return [] }
    return ExcludedProvider.providers(of: resolution.key, in: deployment).map { "plugboard: run: \($0)" }
  }

  private func report(_ problems: [DeploymentProblem]) {
    for problem in problems { console.err("plugboard: \(problem)") }
    let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
    console.err("plugboard: the deployment has \(count); the application was not run")
  }
}
