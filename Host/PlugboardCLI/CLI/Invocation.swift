import PlugboardEngine

/// What the command line asks for.
enum Invocation: Equatable {
  /// General help, or a command's help.
  case help(command: String?)
  case version
  case command(name: String, options: ParsedOptions)
}

/// A command's options after parsing: values by option name, flags that
/// were given, and anything after `--`.
struct ParsedOptions: Equatable {
  var values: [String: String] = [:]
  var flags: Set<String> = []
  var passthrough: [String] = []
  /// Arguments that are not options, for a command that takes one.
  var positionals: [String] = []

  var manifest: String? { values[OptionSpec.manifest.name] }
  var profile: String? { values[OptionSpec.profile.name] }
}
