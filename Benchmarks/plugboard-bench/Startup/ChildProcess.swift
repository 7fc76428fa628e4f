#if canImport(Glibc)
  import Glibc
#endif

/// A program the benchmark starts with `posix_spawn`, times with the
/// monotonic clock, and reaps with `wait4` (which also reports its peak
/// resident size).
struct ChildProcess {
  /// Where the child's output goes.
  enum Output {
    /// Standard output on a pseudo-terminal the benchmark reads (so the
    /// first line is timed when written); standard error into a file, kept
    /// for the error row if the run fails.
    case terminal(errorFile: String)
    /// Standard output and error both into a file (for builds).
    case file(String)
  }

  let executable: String
  let arguments: [String]
  let environment: [String: String]
  /// Looks `executable` up on `PATH` (for `swift`) instead of taking it as a path.
  var searchesPath = false

  /// Runs the child to completion. On a terminal, the time of the first
  /// newline is recorded; the rest of the output is drained (so the child
  /// never blocks on a full terminal) and discarded. A child still running
  /// after `timeoutSeconds` is killed and reported as a failure.
  func run(_ output: Output, timeoutSeconds: Double = 120) -> Result<ChildRun, BenchFailure> {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    var terminal: PseudoTerminal?
    switch output {
    case .terminal(let errorFile):
      switch PseudoTerminal.open() {
      case .success(let opened): terminal = opened
      case .failure(let failure): return .failure(failure)
      }
      posix_spawn_file_actions_adddup2(&actions, terminal?.device ?? -1, 1)
      posix_spawn_file_actions_addopen(&actions, 2, errorFile, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    case .file(let path):
      posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      posix_spawn_file_actions_adddup2(&actions, 1, 2)
    }
    let argv = CStringArray([executable] + arguments)
    let envp = CStringArray(environment.map { "\($0.key)=\($0.value)" })
    var pid: pid_t = 0
    let start = now()
    let spawned =
      searchesPath
      ? posix_spawnp(&pid, executable, &actions, nil, argv.pointers, envp.pointers)
      : posix_spawn(&pid, executable, &actions, nil, argv.pointers, envp.pointers)
    // The parent's copy must go, or the terminal never reports the child's end.
    if let terminal { close(terminal.device) }
    guard spawned == 0 else {
      if let terminal { close(terminal.controller) }
      return .failure(BenchFailure("cannot start \(executable): \(String(cString: strerror(spawned)))"))
    }
    var reading = FirstLineReader()
    if let terminal {
      reading.read(from: terminal.controller, start: start, deadline: start + UInt64(timeoutSeconds * 1e9))
      close(terminal.controller)
      if reading.timedOut { kill(pid, SIGKILL) }
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
      guard errno == EINTR else { return .failure(BenchFailure("wait4: \(errnoText())")) }
    }
    let exited = now() - start
    if reading.timedOut {
      return .failure(BenchFailure("\(executable) wrote no line within \(Int(timeoutSeconds)) s; killed"))
    }
    // Decoded by hand: the W* macros are not imported into Swift.
    let signal = status & 0x7f
    let exitStatus = signal == 0 ? (status >> 8) & 0xff : 128 + signal
    return .success(
      ChildRun(
        firstLineNanoseconds: reading.firstLineNanoseconds, exitNanoseconds: exited, status: exitStatus,
        peakResidentKiB: Int(usage.ru_maxrss), firstLine: reading.firstLine))
  }
}
