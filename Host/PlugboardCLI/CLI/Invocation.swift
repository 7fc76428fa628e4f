import PlugboardEngine

/// What the command line asks for.
enum Invocation: Equatable {
  /// General help, or a command's help.
  case help(command: String?)
  case version
  case command(name: String, options: ParsedOptions)
}

/// A command line and what parsing it gave: what it asks for, or the
/// misuse to report. Parsed once at start (``Plugboard/parse(_:)``), then
/// read by the supervising parent (which command, its time limits) and by
/// the command, so that the two cannot read it differently.
package struct ParsedInvocation {
  let arguments: [String]
  let result: Result<Invocation, UsageError>
}

/// A command's options after parsing: values by option name, flags that
/// were given, and anything after `--`.
struct ParsedOptions: Equatable {
  var values: [String: String] = [:]
  var flags: Set<String> = []
  var passthrough: [String] = []
  /// Arguments that are not options, for a command that takes one.
  var positionals: [String] = []

  /// The options that take a duration, read once by the parser (which
  /// refuses a value that is not one), by option name.
  var durations: [String: Duration] = [:]

  var manifest: String? { values[OptionSpec.manifest.name] }
  var profile: String? { values[OptionSpec.profile.name] }
  /// `--stage-timeout`, when given.
  var stageTimeout: Duration? { durations[OptionSpec.stageTimeout.name] }
  /// `--exit-timeout`, when given.
  var exitTimeout: Duration? { durations[OptionSpec.exitTimeout.name] }
  /// `--hook-timeout`, when given.
  var hookTimeout: Duration? { durations[OptionSpec.hookTimeout.name] }
}
