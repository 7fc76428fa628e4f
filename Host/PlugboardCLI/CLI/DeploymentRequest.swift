import Foundation
import PlugboardEngine

/// What every command that reads a deployment does first: read the
/// manifest, choose the profile (`--profile`, `PLUGBOARD_PROFILE`, the
/// manifest's `activeProfile`, in that order) and bring the deployment up
/// in it.
struct DeploymentRequest {
  /// Why the deployment could not be brought up at all.
  enum Failure: Error {
    /// The manifest is missing or wrong: exit status 1 (`run`: 78).
    case manifest(ManifestError)
    /// The flag or the environment names an undeclared profile: exit
    /// status 2 (`run`: 64), as any other misuse.
    case profile(ProfileChoiceError)
  }

  let options: ParsedOptions
  /// The command, for the "Run 'plugboard <command> --help'" line.
  let command: String
  /// Where bring-up reports its stages: the command's session, which a
  /// supervised child attached to its parent.
  let progress: ChildSession
  /// What the command line chose: the default logger's level, and more.
  let settings: HostSettings
  var environment: [String: String] = ProcessInfo.processInfo.environment

  func manifest() -> Result<Manifest, Failure> {
    let read = ManifestReader.read(argument: options.manifest).mapError(Failure.manifest)
    if case .success(let manifest) = read { progress.announceLimits(of: manifest) }
    return read
  }

  func profile(for manifest: Manifest) -> Result<ActiveProfile?, Failure> {
    ProfileChooser.choose(for: manifest, option: options.profile, environment: environment)
      .mapError(Failure.profile)
  }

  /// The deployment, brought up in the chosen profile.
  func bringUp() -> Result<Deployment, Failure> {
    manifest().flatMap { manifest in
      profile(for: manifest).map {
        Deployment.bringUp(
          manifest, profile: $0, loader: PluginLoader(progress: progress), settings: settings)
      }
    }
  }

  /// Reports `failure` on `console` and returns the exit status it means.
  func report(_ failure: Failure, on console: any Console) -> ExitStatus.RawValue {
    switch failure {
    case .manifest(let error):
      for problem in error.problems { console.err("plugboard: \(problem)") }
      return ExitStatus.of(.problems, command: command)
    case .profile(let error):
      for line in UsageError(message: error.description, command: command).lines { console.err(line) }
      return ExitStatus.of(.misuse, command: command)
    }
  }
}
