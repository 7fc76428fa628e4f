import Foundation
import PlugboardEngine

extension Plugboard {
  /// Reads `--quiet`, `--verbose` and the log level (`--log-level`,
  /// `PLUGBOARD_LOG_LEVEL`) of the deployment command `name`, and sets up
  /// what it prints while bringing the deployment up, through `progress`.
  /// Returns the exit status of a usage error, after reporting it; nil
  /// when all is well.
  static func prepareFeedback(
    _ options: ParsedOptions, command name: String, console: any Console, progress: ProgressReporter
  ) -> Int32? {
    let environment = ProcessInfo.processInfo.environment
    let chosen = Verbosity.from(options, command: name).flatMap { verbosity in
      LogLevelChoice.override(
        option: options[.logLevel], environment: environment, command: name
      ).map { (verbosity, $0) }
    }
    switch chosen {
    case .failure(let error):
      for line in error.lines { console.err(line) }
      return ExitStatus.of(.misuse, command: name)
    case .success(let (verbosity, level)):
      Verbosity.current = verbosity
      LogLevelChoice.current = level
      progress.attach(
        feedback: StageFeedback(
          verbosity: verbosity, indicator: ProgressIndicator.forStandardError(verbosity: verbosity)))
      return nil
    }
  }
}
