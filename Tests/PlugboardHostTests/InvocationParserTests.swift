import Testing

@testable import PlugboardCLI
@testable import PlugboardEngine

@Suite struct InvocationParserTests {
  @Test func parsesCommandsAndOptions() throws {
    #expect(try InvocationParser.parse(["--version"]) == .version)
    #expect(try InvocationParser.parse(["--help"]) == .help(command: nil))
    #expect(try InvocationParser.parse(["list", "--help"]) == .help(command: "list"))
    #expect(try InvocationParser.parse(["help", "run"]) == .help(command: "run"))
    #expect(
      try InvocationParser.parse(["-v", "list", "-q"])
        == .command(name: "list", options: ParsedOptions(flags: ["--verbose", "--quiet"])))
    #expect(
      try InvocationParser.parse(["run", "--", "-q"])
        == .command(name: "run", options: ParsedOptions(passthrough: ["-q"])))
    #expect(
      try InvocationParser.parse(["list", "--json", "--manifest=deploy/p.json"])
        == .command(
          name: "list", options: ParsedOptions(values: ["--manifest": "deploy/p.json"], flags: ["--json"])))
    #expect(
      try InvocationParser.parse(["run", "--manifest", "p.json", "--", "--user", "grace", "--help"])
        == .command(
          name: "run",
          options: ParsedOptions(
            values: ["--manifest": "p.json"], passthrough: ["--user", "grace", "--help"])))
    // A command whose positional argument repeats takes each.
    #expect(
      try InvocationParser.parse(["verify", "a.so", "--json", "b.so"])
        == .command(name: "verify", options: ParsedOptions(flags: ["--json"], positionals: ["a.so", "b.so"])))
  }

  /// The time limits are read once, by the parser: the supervising parent
  /// and the command take the same durations from its result, and a value
  /// that is not one is refused there, before anything forks.
  @Test func readsTimeLimitsAsDurationsOnce() throws {
    guard
      case .command(_, let options) = try InvocationParser.parse(
        ["run", "--stage-timeout", "2.5", "--exit-timeout=1", "--hook-timeout", "30"])
    else {
      Issue.record("not a command")
      return
    }
    #expect(options.stageTimeout == .milliseconds(2_500))
    #expect(options.exitTimeout == .seconds(1))
    #expect(options.hookTimeout == .seconds(30))
    #expect(throws: UsageError.self) { try InvocationParser.parse(["run", "--hook-timeout", "0"]) }
    let error = #expect(throws: UsageError.self) {
      try InvocationParser.parse(["list", "--stage-timeout", "soon"])
    }
    #expect(
      error?.lines.first
        == "plugboard: --stage-timeout takes a number of seconds greater than 0 and at most 3600, found 'soon'"
    )
  }

  @Test(arguments: [
    (
      [],
      "missing command; expected one of 'run', 'reload', 'list', 'check', 'explain', 'graph', 'pin', 'verify', 'new', 'completion'"
    ),
    (["lst"], "unknown command 'lst'; did you mean 'list'?"),
    (
      ["deploy"],
      "unknown command 'deploy'; expected one of 'run', 'reload', 'list', 'check', 'explain', 'graph', 'pin', 'verify', 'new', 'completion'"
    ),
    (
      ["--manifest", "x"],
      "missing command after '--manifest x'; expected one of 'run', 'reload', 'list', 'check', 'explain', 'graph', "
        + "'pin', 'verify', 'new', 'completion'"
    ),
    (["--jsn", "list"], "unknown option '--jsn'; did you mean '--json'?"),
    (["--versio"], "unknown option '--versio'; did you mean '--version'?"),
    (["--hlep"], "unknown option '--hlep'; did you mean '--help'?"),
    (["--zzzzzzzz", "list"], "unknown option '--zzzzzzzz'; expected a command first"),
    (["--json", "run"], "unknown option '--json' for 'run'"),
    (["list", "--jsn"], "unknown option '--jsn' for 'list'; did you mean '--json'?"),
    (["run", "--json"], "unknown option '--json' for 'run'"),
    (["run", "--manifest"], "--manifest needs a value: --manifest PATH"),
    (["list", "--manifest", "a", "--manifest", "b"], "--manifest given more than once"),
    (["list", "extra"], "unexpected argument 'extra'"),
    (["explain", "A", "B"], "unexpected argument 'B'"),
    (["verify"], "missing FILE…: plugboard verify FILE…"),
    (["list", "--", "x"], "'list' takes no arguments after '--'"),
    (["list", "--json=yes"], "--json takes no value"),
    (["--version", "run"], "--version takes no arguments"),
  ])
  func rejectsMisuse(arguments: [String], message: String) {
    #expect(throws: UsageError.self) { try InvocationParser.parse(arguments) }
    do {
      _ = try InvocationParser.parse(arguments)
    } catch {
      #expect(error.message == message)
    }
  }
}

/// An option's value that is itself one of the command's options means the
/// value was forgotten, not that a file is called `--json`.
@Suite struct OptionValueTests {
  @Test(arguments: [
    (["list", "--manifest", "--json"], "--manifest", "--json", "PATH"),
    (["list", "--profile", "--json"], "--profile", "--json", "NAME"),
    (["run", "--manifest", "--profile=mock"], "--manifest", "--profile=mock", "PATH"),
    (["run", "--manifest", "--"], "--manifest", "--", "PATH"),
  ])
  func aKnownOptionIsNotAValue(arguments: [String], option: String, found: String, valueName: String) {
    #expect(
      throws: UsageError(
        message: "\(option) needs a value: \(option) \(valueName); found the option '\(found)' instead "
          + "(write \(option)=\(found) if that is the value)",
        command: arguments[0])
    ) {
      try InvocationParser.parse(arguments)
    }
  }

  @Test func theInlineFormTakesAnyValue() throws {
    #expect(
      try InvocationParser.parse(["list", "--manifest=--json"])
        == .command(name: "list", options: ParsedOptions(values: ["--manifest": "--json"])))
    #expect(
      try InvocationParser.parse(["list", "--manifest", "-x.json"])
        == .command(name: "list", options: ParsedOptions(values: ["--manifest": "-x.json"])))
  }
}
