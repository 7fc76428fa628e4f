import Foundation
import PlugboardEngine

extension Plugboard {
  /// Reads `--quiet`, `--verbose` and the log level (`--log-level`,
  /// `PLUGBOARD_LOG_LEVEL`) of the deployment command `name` into
  /// `settings`, and sets up what it prints while bringing the deployment
  /// up, through `progress`. Fails with the usage error, which the caller
  /// reports.
  static func prepareFeedback(
    _ options: ParsedOptions, command name: String, progress: ChildSession, settings: HostSettings
  ) -> Result<HostSettings, UsageError> {
    let environment = ProcessInfo.processInfo.environment
    return Verbosity.from(options, command: name).flatMap { verbosity in
      LogLevelChoice.override(
        option: options[.logLevel], environment: environment, command: name
      ).map { level in
        var chosen = settings
        chosen.verbosity = verbosity
        chosen.logLevel = level
        progress.attach(
          feedback: StageFeedback(
            verbosity: verbosity, indicator: ProgressIndicator.forStandardError(verbosity: verbosity)))
        return chosen
      }
    }
  }
}
