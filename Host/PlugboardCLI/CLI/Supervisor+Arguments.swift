import PlugboardEngine

// Which command a command line names, and its timeouts, are the CLI's to
// read; the engine's Supervisor only forks and watches.
extension Supervisor {
  /// Supervises the command `arguments` name, if it brings a deployment up
  /// and `--unsupervised` is not given. Returns `nil` in the child, which
  /// must go on and run the command, and the exit status in the parent.
  /// Returns `nil` too when the process cannot fork (the command then runs
  /// unsupervised rather than not at all).
  static func superviseIfNeeded(_ arguments: [String]) -> Int32? {
    guard case .command(let name, let options)? = try? ArgumentParser.parse(arguments),
      supervisedCommands.contains(name), !options.flags.contains(OptionSpec.unsupervised.name)
    else { return nil }
    var limits: [Duration?] = []
    for option in [OptionSpec.stageTimeout, OptionSpec.exitTimeout] {
      guard let text = options.values[option.name] else {
        limits.append(nil)
        continue
      }
      // A bad value is the command's to report, as any other misuse.
      guard let parsed = StageTimeout.parse(text) else { return nil }
      limits.append(parsed)
    }
    return Supervisor(command: name, timeout: limits[0], exitTimeout: limits[1]).supervise()
  }
}
