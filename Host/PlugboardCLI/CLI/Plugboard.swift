import PlugboardEngine
import PlugboardSupervision

/// The `plugboard` command line: parses the arguments, runs the command,
/// and returns the exit status. The executable only calls ``main(_:console:)``
/// and exits with its result, so every path ends by exiting.
package enum Plugboard {
  /// For the executable's first statement: forks, when `arguments` name a
  /// command that brings a deployment up, and supervises the child (see
  /// `Supervisor`). Returns the exit status in the supervising parent, and
  /// `nil` in the child or when no supervision applies: then call
  /// ``main(_:console:)``. Call it while the process has one thread, before
  /// any `await`. `launch` is what the launcher handed over, if it
  /// forked already (see `LauncherHandoff`); `session` is the one
  /// ``main(_:session:settings:console:)`` runs the command in, which the
  /// child attaches to its parent here.
  package static func superviseIfNeeded(
    _ invocation: ParsedInvocation, launch: LauncherHandoff?, session: ChildSession
  ) -> Int32? {
    Supervisor.superviseIfNeeded(invocation, launch: launch, session: session)
  }

  /// For the executable, after parsing and before
  /// ``superviseIfNeeded(_:launch:session:)``: opens the socket `run
  /// --listen` asks for, while no child exists yet, so that the process the
  /// service manager started holds it and hands it to every child (see
  /// `ListeningSocket`). Returns the exit status when it cannot; nil when
  /// it listens or nothing asked it to.
  package static func listenIfAsked(_ invocation: ParsedInvocation) -> Int32? {
    guard case .command(let name, let options)? = try? invocation.result.get(), name == CommandSpec.run.name,
      let text = options[.listen], let address = ListenAddress.parse(text)
    else { return nil }
    return ListeningSocket.listen(on: address, quiet: options.isSet(.quiet))
  }

  /// Parses `arguments` (without the program name), once: the result goes
  /// to ``superviseIfNeeded(_:launch:)`` and to ``main(_:console:)``, so
  /// that the supervising parent and the command read the same options.
  package static func parse(_ arguments: [String]) -> ParsedInvocation {
    ParsedInvocation(
      arguments: arguments,
      result: Result { () throws(UsageError) in
        try InvocationParser.parse(arguments)
      })
  }

  /// Ends the process with `status`: by exiting, except after a request
  /// to stop (SIGINT, SIGTERM, SIGHUP) that ended the command, when
  /// `status` is 128 + that signal: then the process ends by that signal,
  /// as shells, `timeout` and service managers expect of a process they
  /// asked to stop.
  package static func exit(_ status: Int32) -> Never {
    plugboard_exit(status)
  }

  /// Runs the command `invocation` describes, in `session` (made in
  /// `main`, before ``superviseIfNeeded(_:launch:session:)``), with
  /// `settings`, which the command line's own (`--quiet`, `--verbose`,
  /// `--log-level`) complete.
  /// - Returns: the exit status (see ``ExitStatus``; `run` returns the
  ///   application's own status once it ran).
  ///
  /// Standard output that could not be written (a full disk, a closed
  /// pipe) fails the command: it is reported on standard error, and a
  /// status of 0 becomes 1, so a script never takes a lost report for a
  /// healthy one.
  package static func main(
    _ invocation: ParsedInvocation, session: ChildSession, settings: HostSettings,
    console: any Console = StandardConsole()
  ) async -> Int32 {
    let status = await execute(invocation.result, session: session, settings: settings, console: console)
    guard let failure = console.finish() else { return status }
    let command =
      CommandSpec.all.first { $0.name == invocation.arguments.first }.map { "\($0.name): " } ?? ""
    console.err("plugboard: \(command)cannot write to standard output: \(failure)")
    return status == ExitStatus.healthy.rawValue ? ExitStatus.problems.rawValue : status
  }

  private static func execute(
    _ parsed: Result<Invocation, UsageError>, session progress: ChildSession, settings: HostSettings,
    console: any Console
  ) async -> Int32 {
    let invocation: Invocation
    switch parsed {
    case .success(let parsed): invocation = parsed
    case .failure(let error):
      for line in error.lines { console.err(line) }
      return ExitStatus.of(.misuse, command: error.command)
    }
    switch invocation {
    case .version:
      console.out(HostVersions.line)
      return ExitStatus.healthy.rawValue
    case .help(let name):
      let spec = CommandSpec.all.first { $0.name == name }
      console.out(spec.map(HelpText.command) ?? HelpText.general())
      return ExitStatus.healthy.rawValue
    case .command(let name, let options):
      return await execute(name, options: options, session: progress, settings: settings, console: console)
    }
  }

  /// Runs the command `name` with `options`: the settings completed from
  /// the command line first, for a command that brings a deployment up.
  private static func execute(
    _ name: String, options: ParsedOptions, session progress: ChildSession, settings: HostSettings,
    console: any Console
  ) async -> Int32 {
    // The commands that bring a deployment up report to the session,
    // which a supervised child attached to its parent at start.
    let supervised = Supervisor.supervisedCommands.contains(name)
    var settings = settings
    if supervised {
      switch prepareFeedback(options, command: name, progress: progress, settings: settings) {
      case .success(let chosen): settings = chosen
      case .failure(let error):
        for line in error.lines { console.err(line) }
        return ExitStatus.of(.misuse, command: name)
      }
    }
    let console = settings.verbosity == .quiet ? QuietConsole(console) : console
    // Each command ends it by its report or its application; whatever
    // path it took, no plugin code runs after it.
    let bringingUp = progress.beginBringUp(divertingPluginOutput: supervised)
    switch name {
    case CommandSpec.run.name:
      return await RunCommand(options: options, console: console, progress: progress, settings: settings)
        .execute(bringingUp)
    case CommandSpec.list.name:
      return ListCommand(options: options, console: console, progress: progress, settings: settings)
        .execute(bringingUp)
    case CommandSpec.check.name:
      return await CheckCommand(options: options, console: console, progress: progress, settings: settings)
        .execute(bringingUp)
    case CommandSpec.explain.name:
      return ExplainCommand(options: options, console: console, progress: progress, settings: settings)
        .execute(bringingUp)
    case CommandSpec.graph.name:
      return GraphCommand(options: options, console: console, progress: progress, settings: settings)
        .execute(bringingUp)
    case CommandSpec.pin.name: return PinCommand(options: options, console: console).execute()
    case CommandSpec.verify.name: return VerifyCommand(options: options, console: console).execute()
    case CommandSpec.reload.name: return ReloadCommand(options: options, console: console).execute()
    case CommandSpec.new.name: return NewCommand(options: options, console: console).execute()
    case CommandSpec.completion.name: return CompletionCommand(options: options, console: console).execute()
    default:
      console.err("plugboard: internal error: no implementation for '\(name)'")
      return ExitStatus.of(.misuse, command: name)
    }
  }
}
