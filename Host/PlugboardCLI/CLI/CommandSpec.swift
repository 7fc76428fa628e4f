import PlugboardEngine

/// What a subcommand accepts, from which both the parser and the help text
/// are made. A new subcommand (`check`, `explain`, `graph`) is one more
/// spec here and one more case in ``Plugboard``.
struct CommandSpec: Sendable {
  let name: String
  let summary: String
  let options: [OptionSpec]
  /// Whether arguments after `--` are taken (and handed on).
  let passthrough: String?
  /// The one positional argument it takes (`TYPE` for `explain`), if any.
  var positional: String? = nil
  /// Whether it takes any number of them, one at least (`verify FILE…`).
  var positionalRepeats = false
  /// A flag that makes the command ask for no positional argument
  /// (`completion --profile-names`, which prints no script).
  var positionalNotNeededWith: OptionSpec? = nil
  /// The last paragraph of its `--help`: the exit statuses it ends with.
  var statuses = HelpText.reportingStatuses

  static let run = CommandSpec(
    name: Supervisor.runCommand,
    summary: "load the deployment's plugins, then resolve and run its Application",
    options: [.manifest, .profile] + OptionSpec.supervision + [.hookTimeout, .pidFile, .listen],
    passthrough: "ARGUMENTS…",
    statuses: HelpText.runStatuses)

  static let list = CommandSpec(
    name: "list",
    summary: "print each plugin with its version and file, and its registrations",
    options: [
      .manifest, .profile, .json,
    ] + OptionSpec.supervision,
    passthrough: nil)

  static let pin = CommandSpec(
    name: "pin",
    summary: "write the SHA-256 pins of the plugins and their libraries (hashes files; loads nothing)",
    options: [.manifest], passthrough: nil)

  static let reload = CommandSpec(
    name: "reload",
    summary:
      "make a running 'plugboard run' reload its deployment (it runs what 'plugboard check' checks first)",
    options: [.pid, OptionSpec.pidFile.helping("the file 'run --pid-file PATH' wrote")],
    passthrough: nil, statuses: HelpText.reloadStatuses)

  static let all = [run, reload, list, check, explain, graph, pin, verify, new, completion]

  func option(named name: String) -> OptionSpec? {
    options.first { $0.name == name }
  }
}
