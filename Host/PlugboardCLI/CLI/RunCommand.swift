import PlugboardEngine

#if canImport(Glibc)
  import Glibc
#endif

/// `plugboard run`: bring the deployment up and, only if it is healthy,
/// resolve its `Application` and run it with the arguments after `--`.
///
/// What it refuses and why is ``ApplicationLaunch``'s, which programs that
/// embed the host share.
///
/// Exit status: the application's own once it started (1 when it throws);
/// before that, plugboard's own, distinct from an application's (see
/// ``ExitStatus``): 78 for a broken deployment, 64 for misuse, 70 for a
/// crash plugboard cannot set aside.
struct RunCommand {
  let options: ParsedOptions
  let console: any Console
  /// Where bring-up reports its stages.
  let progress: ChildSession
  /// What the command line chose, for bring-up.
  let settings: HostSettings

  /// Brings the deployment up and runs its application (ending
  /// `bringingUp` by handing over to it), or reports why not.
  func execute(_ bringingUp: consuming ChildSession.BringingUp) async -> ExitStatus.RawValue {
    if let refusal = writePidFile() {
      console.err("plugboard: run: \(refusal.message)")
      return ExitStatus.runBroken.rawValue
    }
    let request = DeploymentRequest(
      options: options, command: CommandSpec.run.name, progress: progress, settings: settings)
    let deployment: Deployment
    let launch: ApplicationLaunch
    do throws(RunFailure) {
      switch request.bringUp() {
      case .success(let brought): deployment = brought
      case .failure(.manifest(let error)):
        throw .deploymentProblems(error.problems)
      case .failure(let failure):
        return request.report(failure, on: console)
      }
      // Said once, by the child that brought the deployment up.
      for (entry, problem) in deployment.optionalFailures {
        console.warn("plugboard: run: \(Deployment.optionalWarning(entry, problem))")
      }
      for line in EnvironmentRule().warnings(of: deployment, command: CommandSpec.run.name) {
        console.warn(line)
      }
      // The steps from here are ApplicationLaunch's, shared with
      // EmbeddedDeployment.
      launch = try await ApplicationLaunch.prepareAwaiting(deployment)
    } catch {
      _ = bringingUp.beginReport()
      return report(error)
    }
    for warning in launch.warnings { console.warn("plugboard: run: warning: \(warning)") }
    do throws(RunFailure) {
      return try await launch.run(
        arguments: options.passthrough, hookTimeout: options.hookTimeout, console: console,
        running: bringingUp.handOverToApplication(of: deployment))
    } catch {
      return report(error)
    }
  }

  /// Reports `failure` and returns the status it ends `run` with.
  private func report(_ failure: RunFailure) -> ExitStatus.RawValue {
    for line in failure.lines() { console.err(line) }
    return failure.exitStatus
  }

  /// `--pid-file PATH`: the supervising process's pid, for `plugboard
  /// reload`, written before anything is brought up; why it cannot or must
  /// not be (``PidFile``), which ends the run before bring-up: a pid file
  /// asked for and not written would leave a later `reload` with nothing, or
  /// with another process's pid. Unsupervised, there is no process that
  /// reloads: nothing is written.
  private func writePidFile() -> PidFile.Failure? {
    guard let path = options[.pidFile] else { return nil }
    guard progress.isSupervised else {
      console.warn("plugboard: run: warning: --pid-file is not written with --unsupervised: nothing reloads")
      return nil
    }
    return PidFile.write(path, pid: getppid())
  }
}
