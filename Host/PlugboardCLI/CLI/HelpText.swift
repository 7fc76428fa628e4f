import PlugboardEngine

/// The text of `plugboard --help` and `plugboard <command> --help`.
enum HelpText {
  static func general(commands: [CommandSpec] = CommandSpec.all) -> String {
    let width = commands.map(\.name.count).max() ?? 0
    let lines = commands.map { "  \($0.name.padded(to: width))  \($0.summary)" }
    return """
      plugboard — loads the plugins a manifest names into one container and runs the application

      Usage: plugboard <command> [options]
             plugboard --version
             plugboard --help | <command> --help

      Commands:
      \(lines.joined(separator: "\n"))

      \(reportingStatuses)
      \(runStatuses)
      """
  }

  static func command(_ spec: CommandSpec) -> String {
    let options = spec.options + [OptionSpec(name: "--help", valueName: nil, help: "show this help")]
    let labels = options.map(\.label)
    let width = labels.map(\.count).max() ?? 0
    let lines = zip(labels, options).map { "  \($0.padded(to: width))  \($1.help)" }
    let tail = spec.passthrough.map { " [-- \($0)]" } ?? ""
    return """
      plugboard \(spec.name) — \(spec.summary)

      Usage: plugboard \(spec.name)\(spec.positional.map { " \($0)" } ?? "") [options]\(tail)

      Options:
      \(lines.joined(separator: "\n"))

      \(spec.statuses)
      """
  }

  /// `new`: it writes a package and reads no deployment.
  static let newStatuses = """
    Exit status: 0 the package was written; 1 it was not (no SDK found, the folder is in use,
    or a file could not be written: reported on stderr); 2 command-line misuse.
    """

  /// `completion`: it prints a script and reads no deployment.
  static let completionStatuses = """
    Exit status: 0 the script was printed; 2 command-line misuse (a SHELL other than bash,
    zsh or fish).
    """

  /// `verify`: it checks signatures and loads nothing.
  static let verifyStatuses = """
    Exit status: 0 every FILE's signature verified (with --allowed-signers, by a key allowed to sign it);
    1 one did not, or a file could not be read (each reported on stderr, naming the file and the fix);
    2 command-line misuse.
    """

  /// `reload`: it signals a running deployment and loads nothing.
  static let reloadStatuses = """
    Exit status: 0 the reload was asked for (the running deployment reports how it went on its
    stderr, or the journal; run 'plugboard check' on the new manifest first to see what it
    would find); 1 the process is not a running 'plugboard run' of yours; 2 command-line misuse.
    """

  /// `list`, `check`, `explain`, `graph`, `pin`: see ``ExitStatus``.
  static let reportingStatuses = """
    Exit status: 0 healthy; 1 problems found in the deployment (reported on stderr);
    2 command-line misuse.
    """

  /// `run`: its own failures are told apart from the application's.
  static let runStatuses = """
    Exit status of 'run': the application's own once it started (1 if it throws,
    128+N if signal N ended it); before that, plugboard's own: 78 the deployment is
    broken, 64 command-line misuse, 70 plugin code crashed where it could not be set aside,
    69 a service's start hook failed or timed out. Stopped by SIGINT/SIGTERM: ends by
    that signal (a shell shows 128+N), after the stop hooks ran.
    """
}
