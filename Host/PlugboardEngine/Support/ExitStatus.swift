/// How `plugboard` ends. Documented in `Docs/commands.md` ("Exit status")
/// and in every command's `--help`; scripts rely on it.
///
/// The reporting commands (`list`, `check`, `explain`, `graph`, `pin`) end
/// with 0, 1 or 2. `run` ends with the application's own status once the
/// application started, so its own failures before that use the
/// `sysexits.h` statuses 64–78, which applications conventionally leave
/// alone: a script can tell "plugboard refused" from "the application
/// returned 1 or 2". An application killed by a signal ends with 128 + the
/// signal's number, as a shell reports it.
package enum ExitStatus: Int32, Sendable {
  /// The deployment is healthy (and, for `run`, the application succeeded).
  case healthy = 0
  /// Problems were found in the deployment and reported on stderr.
  case problems = 1
  /// The command line was wrong; nothing was attempted.
  case misuse = 2
  /// `run`: the command line was wrong; nothing was attempted
  /// (`EX_USAGE`).
  case runMisuse = 64
  /// `run`: a service's start hook threw or did not finish within its
  /// time limit; the services already started were stopped, in reverse,
  /// and the application was not run (`EX_UNAVAILABLE`).
  case runStartFailed = 69
  /// `run`: plugin code crashed or hung where plugboard could not set the
  /// plugin aside (while the `Application` was resolved, or plugboard's
  /// own code failed); the application was not started (`EX_SOFTWARE`).
  case runCrashed = 70
  /// `run`: the deployment is broken (the manifest, a plugin, the
  /// dependency graph, no `Application`); the application was not started
  /// (`EX_CONFIG`).
  case runBroken = 78

  /// The status `command` ends with for one of plugboard's own outcomes:
  /// `run`'s must not be mistaken for an application's, so it maps
  /// `.problems` to ``runBroken`` and `.misuse` to ``runMisuse``.
  package static func of(_ status: ExitStatus, command: String?) -> Int32 {
    guard command == Supervisor.runCommand else { return status.rawValue }
    switch status {
    case .problems: return ExitStatus.runBroken.rawValue
    case .misuse: return ExitStatus.runMisuse.rawValue
    default: return status.rawValue
    }
  }

  /// The status a crash or a hang plugboard cannot attribute to a plugin
  /// it could set aside ends `command` with.
  static func crashed(command: String) -> Int32 {
    command == Supervisor.runCommand ? ExitStatus.runCrashed.rawValue : ExitStatus.problems.rawValue
  }
}
