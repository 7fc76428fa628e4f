import PlugboardKit

/// `plugboard run`: bring the deployment up and, only if it is healthy,
/// resolve its `Application` and run it with the arguments after `--`.
///
/// A deployment with problems is not run at all: half an application,
/// missing the plugins that failed, is worse than a clear refusal.
struct RunCommand {
  let options: ParsedOptions
  let console: any Console

  func execute() async -> ExitStatus.RawValue {
    let manifest: Manifest
    switch ManifestReader.read(argument: options.manifest) {
    case .success(let read): manifest = read
    case .failure(let error):
      report(error.problems)
      return ExitStatus.problems.rawValue
    }
    let deployment = Deployment.bringUp(manifest)
    guard deployment.problems.isEmpty else {
      report(deployment.problems)
      return ExitStatus.problems.rawValue
    }
    let application: any Application
    do {
      application = try deployment.container.resolve((any Application).self)
    } catch {
      console.err("plugboard: run: cannot resolve the Application to run:")
      console.err("\(error)")
      return ExitStatus.problems.rawValue
    }
    do {
      return try await application.run(arguments: options.passthrough)
    } catch {
      console.err("plugboard: run: the application failed: \(error)")
      return ExitStatus.problems.rawValue
    }
  }

  private func report(_ problems: [DeploymentProblem]) {
    for problem in problems { console.err("plugboard: \(problem)") }
    let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
    console.err("plugboard: the deployment has \(count); the application was not run")
  }
}
