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
/// were given, and anything after `--`. Commands read them through the
/// option's spec, `options[.manifest]` or `options.isSet(.json)`, the
/// same spec the parser, the help and the completion scripts use: an
/// option that no spec declares cannot be asked for.
struct ParsedOptions: Equatable {
  // By option name, and private: read through the spec, never by a string
  // that could be misspelt.
  private var values: [String: String]
  private var flags: Set<String>
  /// The options that take a duration, read once by the parser (which
  /// refuses a value that is not one).
  private var durations: [String: Duration]
  var passthrough: [String]
  /// Arguments that are not options, for a command that takes one.
  var positionals: [String]

  /// The options of a command line, by option name (`--manifest`).
  init(
    values: [String: String] = [:], flags: Set<String> = [], passthrough: [String] = [],
    positionals: [String] = [], durations: [String: Duration] = [:]
  ) {
    (self.values, self.flags, self.passthrough) = (values, flags, passthrough)
    (self.positionals, self.durations) = (positionals, durations)
  }

  /// Whether `option` was given, as a value or as a flag.
  func wasGiven(_ option: OptionSpec) -> Bool { values[option.name] != nil || flags.contains(option.name) }

  /// Records the value given to `option`.
  mutating func record(_ value: String, for option: OptionSpec) { values[option.name] = value }

  /// Records that the flag `option` was given.
  mutating func recordFlag(_ option: OptionSpec) { flags.insert(option.name) }

  /// Records the duration the value of `option` reads as.
  mutating func record(_ duration: Duration, for option: OptionSpec) { durations[option.name] = duration }

  /// The value given to `option`, nil when it was not given (or is a flag).
  subscript(option: OptionSpec) -> String? { values[option.name] }

  /// Whether the flag `option` was given.
  func isSet(_ option: OptionSpec) -> Bool { flags.contains(option.name) }

  /// The duration given to `option` (`--stage-timeout`, `--exit-timeout`,
  /// `--hook-timeout`), as the parser read it; nil when not given.
  func duration(_ option: OptionSpec) -> Duration? { durations[option.name] }

  var manifest: String? { self[.manifest] }
  var profile: String? { self[.profile] }
  /// `--stage-timeout`, when given.
  var stageTimeout: Duration? { duration(.stageTimeout) }
  /// `--exit-timeout`, when given.
  var exitTimeout: Duration? { duration(.exitTimeout) }
  /// `--hook-timeout`, when given.
  var hookTimeout: Duration? { duration(.hookTimeout) }
}
