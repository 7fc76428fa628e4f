import PlugboardEngine

// The engine takes the verbosity as a value (``HostSettings``); reading it from the command
// line is the CLI's.
extension Verbosity {
  /// The verbosity `options` ask for; `--quiet` with `--verbose` is a
  /// usage error, since they contradict each other.
  static func from(_ options: ParsedOptions, command: String) -> Result<Verbosity, UsageError> {
    switch (options.isSet(.quiet), options.isSet(.verbose)) {
    case (true, true):
      .failure(
        UsageError(message: "\(quietFlag) and \(verboseFlag) cannot be used together", command: command))
    case (true, false): .success(.quiet)
    case (false, true): .success(.verbose)
    case (false, false): .success(.normal)
    }
  }
}
