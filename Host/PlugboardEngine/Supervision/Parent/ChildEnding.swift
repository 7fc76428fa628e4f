#if canImport(Glibc)
  import Glibc
#endif

/// How a supervised child ended, as the parent saw it.
enum ChildEnding: Equatable, Sendable {
  /// It exited with this status.
  case exited(Int32)
  /// A signal ended it.
  case signaled(Int32)
  /// It was still in a stage when the stage's time ran out, and the parent
  /// killed it.
  case hung(Duration)

  /// Decodes a `waitpid` status (the `WIFEXITED` family are macros Swift
  /// cannot import).
  init(waitStatus status: Int32) {
    let signal = status & 0x7f
    self = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
  }
}

/// Signals by name, as people know them, with what they usually mean.
enum SignalName {
  /// `SIGSEGV`, or `signal 42` for one without a name here.
  static func name(_ signal: Int32) -> String {
    names[signal].map { "SIG\($0.name)" } ?? "signal \(signal)"
  }

  /// `SIGSEGV (segmentation fault)`.
  static func describe(_ signal: Int32) -> String {
    guard let entry = names[signal] else { return "signal \(signal)" }
    return "SIG\(entry.name) (\(entry.meaning))"
  }

  /// Signals that ask a process to stop rather than report a fault: the
  /// supervisor passes them through without a crash report. SIGPIPE is
  /// one only when a reader of plugboard's own output went away
  /// (`readerGone`, asked only for it): plugboard ignores SIGPIPE, so a
  /// child it ended while that output is still read is plugin code's
  /// doing, a write to a pipe of its own nobody reads, once it gave the
  /// signal its default action back.
  static func isRequest(_ signal: Int32, readerGone: () -> Bool = { OutputReaders.areGone }) -> Bool {
    [SIGINT, SIGTERM, SIGHUP].contains(signal) || (signal == SIGPIPE && readerGone())
  }

  private static let names: [Int32: (name: String, meaning: String)] = [
    SIGHUP: ("HUP", "hangup"), SIGINT: ("INT", "interrupt"), SIGQUIT: ("QUIT", "quit"),
    SIGILL: ("ILL", "illegal instruction"), SIGTRAP: ("TRAP", "trace trap"), SIGABRT: ("ABRT", "aborted"),
    SIGBUS: ("BUS", "bus error: a mapped file shorter than expected, or a misaligned access"),
    SIGFPE: ("FPE", "arithmetic exception"), SIGKILL: ("KILL", "killed"), SIGUSR1: ("USR1", "user signal 1"),
    SIGSEGV: ("SEGV", "segmentation fault: a bad memory access"), SIGUSR2: ("USR2", "user signal 2"),
    SIGPIPE: ("PIPE", "a write to a pipe nobody reads"), SIGALRM: ("ALRM", "alarm clock"),
    SIGTERM: ("TERM", "terminated"),
    SIGXCPU: ("XCPU", "CPU time limit exceeded"), SIGXFSZ: ("XFSZ", "file size limit exceeded"),
    SIGSYS: ("SYS", "bad system call"),
  ]
}

/// The readers of plugboard's own standard output and error, as the
/// supervising parent, whose descriptors 1 and 2 no plugin code touches,
/// sees them.
enum OutputReaders {
  /// Whether one went away: standard output or error is a pipe whose read
  /// end is closed (poll reports POLLERR), or a socket or terminal whose
  /// other end hung up (POLLHUP). A file, or a reader still there, says no.
  static var areGone: Bool {
    var descriptors = [STDOUT_FILENO, STDERR_FILENO].map { pollfd(fd: $0, events: 0, revents: 0) }
    guard poll(&descriptors, nfds_t(descriptors.count), 0) > 0 else { return false }
    return descriptors.contains { Int32($0.revents) & (POLLERR | POLLHUP) != 0 }
  }
}
