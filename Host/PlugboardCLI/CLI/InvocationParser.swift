import PlugboardEngine

/// Parses `plugboard`'s arguments (without the program name) against the
/// command specs. Hand-written, strict, and specific in its complaints.
enum InvocationParser {
  static func parse(_ arguments: [String], commands: [CommandSpec] = CommandSpec.all) throws(UsageError)
    -> Invocation
  {
    let arguments = try hoistingGlobalOptions(
      expandingShortOptions(arguments, commands: commands), commands: commands)
    guard let first = arguments.first else {
      throw UsageError(message: "missing command; expected one of \(names(commands))", command: nil)
    }
    switch first {
    case "--version":
      guard arguments.count == 1 else {
        throw UsageError(message: "--version takes no arguments", command: nil)
      }
      return .version
    case "--help", "-h":
      return .help(command: nil)
    case "help":
      guard let topic = arguments.dropFirst().first else { return .help(command: nil) }
      return .help(command: try command(named: topic, in: commands).name)
    default:
      let spec = try command(named: first, in: commands)
      let rest = Array(arguments.dropFirst())
      if rest.contains(where: { $0 == "--help" || $0 == "-h" }), !passesThrough(helpIn: rest) {
        return .help(command: spec.name)
      }
      var parsed = try options(rest, for: spec)
      try readDurations(&parsed, command: spec.name)
      if let text = parsed[.listen], ListenAddress.parse(text) == nil {
        throw UsageError(
          message:
            "\(OptionSpec.listen.name) takes \(ListenAddress.forms), found '\(Terminal.sanitize(text))'",
          command: spec.name)
      }
      return .command(name: spec.name, options: parsed)
    }
  }

  /// The options that take a number of seconds, read into
  /// ``ParsedOptions/durations`` here, once: the supervising parent times
  /// the child with them and the command runs with them, from the same
  /// parse. A value that is not a duration is a misuse of the command.
  private static func readDurations(_ parsed: inout ParsedOptions, command: String) throws(UsageError) {
    for option in [OptionSpec.stageTimeout, OptionSpec.exitTimeout, OptionSpec.hookTimeout] {
      guard let text = parsed[option] else { continue }
      guard let duration = StageTimeout.parse(text) else {
        throw UsageError(
          message: "\(option.name) takes a number of seconds greater than 0 and at most "
            + "\(Int(StageTimeout.maximumSeconds)), found '\(Terminal.sanitize(text))'",
          command: command)
      }
      parsed.record(duration, for: option)
    }
  }

  /// `-q` as `--quiet`, wherever the long name would be taken: before the
  /// arguments after `--`, which are the application's.
  private static func expandingShortOptions(_ arguments: [String], commands: [CommandSpec]) -> [String] {
    let options = commands.flatMap(\.options)
    let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
    return arguments[..<end].map { argument in
      options.first { $0.short == argument }?.name ?? argument
    } + arguments[end...]
  }

  /// `plugboard --manifest x.json list` as `plugboard list --manifest
  /// x.json`: options before the command are moved after its name, where
  /// the command's own spec accepts or rejects them. An option takes a value
  /// when it does in any command; `--help`, `-h` and `--version` stay first.
  private static func hoistingGlobalOptions(_ arguments: [String], commands: [CommandSpec]) throws(UsageError)
    -> [String]
  {
    var leading: [String] = []
    var remaining = arguments[...]
    while let argument = remaining.first, argument.hasPrefix("--"), argument != "--",
      !["--help", "--version"].contains(argument)
    {
      remaining.removeFirst()
      let (name, inlineValue) = split(argument)
      let known = commands.flatMap(\.options).first { $0.name == name }
      guard let option = known else { throw unknownLeadingOption(name, commands: commands) }
      leading.append(argument)
      if option.valueName != nil, inlineValue == nil, let value = remaining.popFirst() {
        leading.append(value)
      }
    }
    guard !leading.isEmpty else { return arguments }
    guard let command = remaining.popFirst() else {
      throw UsageError(
        message:
          "missing command after '\(leading.joined(separator: " "))'; expected one of \(names(commands))",
        command: nil)
    }
    // `plugboard --manifest x.json --help` asks for help, as without the option.
    if command == "--help" || command == "-h" { return [command] }
    return [command] + leading + remaining
  }

  private static func command(named name: String, in commands: [CommandSpec]) throws(UsageError)
    -> CommandSpec
  {
    if let spec = commands.first(where: { $0.name == name }) { return spec }
    if name.hasPrefix("-") { throw unknownLeadingOption(name, commands: commands) }
    let hint =
      KeySuggestion.closest(to: name, among: commands.map(\.name))
      .map { "; did you mean '\($0)'?" } ?? "; expected one of \(names(commands))"
    throw UsageError(message: "unknown command '\(name)'\(hint)", command: nil)
  }

  /// An option before the command that none takes: `--versio` is told of
  /// `--version`, as `chek` is of `check`.
  private static func unknownLeadingOption(_ name: String, commands: [CommandSpec]) -> UsageError {
    let known = ["--help", "--version"] + commands.flatMap { $0.options.map(\.name) }
    let hint =
      KeySuggestion.closest(to: name, among: known).map { "; did you mean '\($0)'?" }
      ?? "; expected a command first"
    return UsageError(message: "unknown option '\(name)'\(hint)", command: nil)
  }

  /// `--help` after `--` belongs to the application, not to plugboard.
  private static func passesThrough(helpIn arguments: [String]) -> Bool {
    guard let separator = arguments.firstIndex(of: "--") else { return false }
    return !arguments[..<separator].contains { $0 == "--help" || $0 == "-h" }
  }

  private static func options(_ arguments: [String], for spec: CommandSpec) throws(UsageError)
    -> ParsedOptions
  {
    var parsed = ParsedOptions()
    var remaining = arguments[...]
    func misuse(_ message: String) -> UsageError { UsageError(message: message, command: spec.name) }
    while let argument = remaining.popFirst() {
      if argument == "--" {
        guard spec.passthrough != nil else {
          throw misuse("'\(spec.name)' takes no arguments after '--'")
        }
        parsed.passthrough = Array(remaining)
        break
      }
      guard argument.hasPrefix("--") else {
        guard spec.positional != nil, parsed.positionals.isEmpty || spec.positionalRepeats else {
          throw misuse("unexpected argument '\(argument)'")
        }
        parsed.positionals.append(argument)
        continue
      }
      try readOption(argument, followedBy: &remaining, into: &parsed, for: spec)
    }
    if let positional = spec.positional, parsed.positionals.isEmpty,
      !(spec.positionalNotNeededWith.map(parsed.isSet) ?? false)
    {
      throw misuse("missing \(positional): plugboard \(spec.name) \(positional)")
    }
    return parsed
  }

  /// Reads the option `argument` (`--name` or `--name=value`) of `spec`
  /// into `parsed`, taking its value from `remaining` when it is not
  /// inline.
  private static func readOption(
    _ argument: String, followedBy remaining: inout ArraySlice<String>, into parsed: inout ParsedOptions,
    for spec: CommandSpec
  ) throws(UsageError) {
    func misuse(_ message: String) -> UsageError { UsageError(message: message, command: spec.name) }
    let (name, inlineValue) = split(argument)
    guard let option = spec.option(named: name) else {
      let hint =
        KeySuggestion.closest(to: name, among: spec.options.map(\.name))
        .map { "; did you mean '\($0)'?" } ?? ""
      throw misuse("unknown option '\(name)' for '\(spec.name)'\(hint)")
    }
    guard !parsed.wasGiven(option) else {
      throw misuse("\(name) given more than once")
    }
    guard let valueName = option.valueName else {
      guard inlineValue == nil else { throw misuse("\(name) takes no value") }
      parsed.recordFlag(option)
      return
    }
    if inlineValue == nil, let next = remaining.first, looksLikeOption(next, of: spec) {
      throw misuse(
        "\(name) needs a value: \(name) \(valueName); found the option '\(next)' instead "
          + "(write \(name)=\(next) if that is the value)")
    }
    guard let value = inlineValue ?? remaining.popFirst(), !value.isEmpty else {
      throw misuse("\(name) needs a value: \(name) \(valueName)")
    }
    parsed.record(value, for: option)
  }

  /// Whether `argument`, found where an option's value should be, is one
  /// of `spec`'s options (or help, or `--`): `list --manifest --json` lost
  /// its path, rather than naming a file called `--json`.
  private static func looksLikeOption(_ argument: String, of spec: CommandSpec) -> Bool {
    guard argument.hasPrefix("-") else { return false }
    if ["--", "--help", "-h"].contains(argument) { return true }
    return spec.option(named: split(argument).0) != nil
  }

  /// `--manifest=x.json` → (`--manifest`, `x.json`).
  private static func split(_ argument: String) -> (String, String?) {
    guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }

  private static func names(_ commands: [CommandSpec]) -> String {
    commands.map { "'\($0.name)'" }.joined(separator: ", ")
  }
}
