import PlugboardEngine
import PlugboardKit

/// One option a command accepts.
struct OptionSpec: Sendable {
  /// `--manifest`.
  let name: String
  /// `PATH` for an option that takes a value; nil for a flag.
  let valueName: String?
  let help: String
  /// `-q` for `--quiet`: the same option, for the few typed often.
  var short: String? = nil
  /// The values the option accepts, when they are a fixed few: shell
  /// completion offers them.
  var choices: [String] = []

  /// `-q, --quiet`, as the help shows it.
  var label: String {
    (short.map { "\($0), " } ?? "") + ([name] + (valueName.map { [$0] } ?? [])).joined(separator: " ")
  }

  /// `--manifest PATH`, shared by every command that reads a deployment.
  static let manifest = OptionSpec(
    name: "--manifest", valueName: "PATH",
    help: "the deployment's manifest, or a folder holding plugins.json (default: ./plugins.json)")

  /// `--profile NAME`: the profile to bring the deployment up in. It
  /// overrides `PLUGBOARD_PROFILE`, which overrides the manifest's
  /// `activeProfile` (see ``ProfileChooser``).
  static let profile = OptionSpec(
    name: ProfileChooser.optionName, valueName: "NAME",
    help: "the profile to use (overrides PLUGBOARD_PROFILE and the manifest's activeProfile)")

  /// `--unsupervised`: bring the deployment up in this process, without a
  /// supervising parent (to debug a plugin under a debugger). A plugin
  /// that crashes or hangs then takes `plugboard` with it.
  static let unsupervised = OptionSpec(
    name: "--unsupervised", valueName: nil,
    help: "load plugins in this process, without the supervising parent (for debuggers)")

  /// `--stage-timeout SECONDS`: how long one stage of one plugin may take
  /// before the supervisor stops it (overrides the manifest's `stageTimeout`).
  static let stageTimeout = OptionSpec(
    name: "--stage-timeout", valueName: "SECONDS",
    help: "stop a plugin stage that takes longer (default 10; overrides the manifest's stageTimeout)")

  /// `--verbose`: each plugin's stages with timings on stderr, and the
  /// log level lowered to debug (see `StageFeedback`).
  static let verbose = OptionSpec(
    name: Verbosity.verboseFlag, valueName: nil,
    help: "print each plugin's stages with their timings on stderr; log at debug", short: "-v")

  /// `--quiet`: only errors on stderr, and the log level raised to error.
  static let quiet = OptionSpec(
    name: Verbosity.quietFlag, valueName: nil, help: "print only errors on stderr (no warnings, no progress)",
    short: "-q")

  /// `--log-level LEVEL`: the level of plugboard's default logger.
  static let logLevel = OptionSpec(
    name: LogLevelChoice.optionName, valueName: "LEVEL",
    help: "trace, debug, info, notice, warning or error (overrides PLUGBOARD_LOG_LEVEL and logLevel)",
    choices: LogLevel.allCases.map(\.description))

  /// `--hook-timeout SECONDS`: how long one start or stop hook may take
  /// (overrides the manifest's `hookTimeout`; see ``ServiceLifecycle/defaultHookTimeout``).
  static let hookTimeout = OptionSpec(
    name: "--hook-timeout", valueName: "SECONDS",
    help: "give up on a service's start or stop hook that takes longer (default 30; overrides hookTimeout)")

  /// `--exit-timeout SECONDS`: how long the code that runs as the
  /// supervised process exits (library destructors, `atexit` handlers:
  /// plugin code) may take (overrides the manifest's `exitTimeout`; the
  /// default is the stage timeout).
  static let exitTimeout = OptionSpec(
    name: "--exit-timeout", valueName: "SECONDS",
    help: "stop plugin code run at exit that takes longer (default: the stage timeout; overrides exitTimeout)"
  )

  /// `--pid-file PATH`: for `run`, where its supervising process writes
  /// its pid; for `reload`, where to read it.
  static let pidFile = OptionSpec(
    name: "--pid-file", valueName: "PATH",
    help: "write the supervising process's pid to PATH, for plugboard reload (removed at the end)")

  /// `--listen [ADDRESS:]PORT`: for `run`, a TCP socket the supervising
  /// process opens and hands to every child as socket activation's (see
  /// `ListeningSocket`), so that a reload keeps the port.
  static let listen = OptionSpec(
    name: "--listen", valueName: "[ADDRESS:]PORT",
    help: "listen on a TCP socket (default address 127.0.0.1) that every child is handed, reloads included")

  /// `--json`: the answer as JSON for machines (`list`, `check`, `explain`,
  /// each with its own help).
  static let json = OptionSpec(
    name: "--json", valueName: nil, help: "print JSON for machines instead of a table")

  /// The same option, described by `help` in one command's `--help`: the
  /// command reads it through the shared spec all the same.
  ///
  /// ```swift
  /// OptionSpec.json.helping("print the report as JSON for machines")
  /// ```
  func helping(_ help: String) -> OptionSpec {
    OptionSpec(name: name, valueName: valueName, help: help, short: short, choices: choices)
  }

  /// The options of every command that brings a deployment up.
  static let supervision = [unsupervised, stageTimeout, exitTimeout, verbose, quiet, logLevel]
}
