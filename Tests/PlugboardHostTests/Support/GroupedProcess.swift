import Foundation
import PlugboardSupervision
import PlugboardTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// `plugboard` started as the leader of a process group of its own, as a
/// shell starts a job and a service manager a service, with its standard
/// output and error on pipes: a test can wait for a line, signal the
/// process or its whole group, and find out whether anything of the group
/// is left once it ended.
///
/// Every wait is bounded by ``limit``: a process that holds a pipe open
/// forever fails the test (and the group is killed) instead of hanging it.
final class GroupedProcess {
  let pid: pid_t
  private var output: Int32
  private var errors: Int32
  private(set) var stdout: [UInt8] = []
  private(set) var stderr: [UInt8] = []
  /// How long any one wait may take before the test gives up: a bound on
  /// a hang, not a time the process is expected to meet, so far beyond
  /// what a busy machine takes to print a line.
  static let limit = Duration.seconds(120)

  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// How it ended: `signaled` when a signal ended it, `status` the exit
  /// status or the signal's number.
  struct Ending: Equatable, CustomStringConvertible {
    let signaled: Bool
    let status: Int32
    var description: String { signaled ? "killed by signal \(status)" : "exited with \(status)" }
    static func exited(_ status: Int32) -> Ending { Ending(signaled: false, status: status) }
    static func killed(_ signal: Int32) -> Ending { Ending(signaled: true, status: signal) }
  }

  /// Starts `executable` (the built `plugboard` unless told otherwise)
  /// with `arguments`, `environment` added to this process's, and
  /// `descriptors` at 3, 4, … (as socket activation passes its sockets).
  init(
    _ arguments: [String], environment: [String: String] = [:], executable: String = BuildProducts.plugboard,
    passing descriptors: [Int32] = []
  ) throws {
    var outputPipe: [Int32] = [-1, -1]
    var errorPipe: [Int32] = [-1, -1]
    // Socket pairs, for their atomic close-on-exec (Glibc's `pipe2` is
    // not imported): a process another test starts meanwhile must not
    // inherit a write end and keep the reader from its end.
    let kind = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    guard socketpair(AF_UNIX, kind, 0, &outputPipe) == 0, socketpair(AF_UNIX, kind, 0, &errorPipe) == 0 else {
      throw Failure(description: "socketpair: \(String(cString: strerror(errno)))")
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
    posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
    for (index, descriptor) in descriptors.enumerated() {
      posix_spawn_file_actions_adddup2(&actions, descriptor, 3 + Int32(index))
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // A group of its own, every signal unblocked and at its default
    // action, whatever the test runner's thread had.
    var none = sigset_t()
    sigemptyset(&none)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE] { sigaddset(&defaults, signal) }
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for variable in envp { free(variable) } }
    var child: pid_t = 0
    let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
    close(outputPipe[1])
    close(errorPipe[1])
    guard result == 0 else {
      close(outputPipe[0])
      close(errorPipe[0])
      throw Failure(description: "posix_spawn: \(String(cString: strerror(result)))")
    }
    pid = child
    output = outputPipe[0]
    errors = errorPipe[0]
  }

  deinit {
    if output >= 0 { close(output) }
    if errors >= 0 { close(errors) }
  }

  var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
  var stderrText: String { String(decoding: stderr, as: UTF8.self) }
  var stdoutLines: [Substring] { stdoutText.split(separator: "\n") }

  /// Reads until standard output (or error, with `onStderr`) holds
  /// `line`, a whole line; false if both pipes ended first.
  func waitForLine(_ line: String, onStderr: Bool = false) throws -> Bool {
    let wanted = Array((line + "\n").utf8)
    func seen() -> Bool {
      let text = onStderr ? stderr : stdout
      guard text.count >= wanted.count else { return false }
      let lines = String(decoding: text, as: UTF8.self).split(
        separator: "\n", omittingEmptySubsequences: false)
      return lines.dropLast().contains(Substring(line))
    }
    while !seen() {
      guard try readSome() else { return seen() }
    }
    return true
  }

  /// Reads until standard output (or error, with `onStderr`) holds a
  /// whole line past the first `skipping` that satisfies `wanted`, and
  /// returns it; nil if both pipes ended first. For lines that hold what
  /// differs from run to run (a time).
  func waitForLine(
    onStderr: Bool = false, skipping: Int = 0, where wanted: (Substring) -> Bool
  ) throws -> Substring? {
    func found() -> Substring? {
      let text = String(decoding: onStderr ? stderr : stdout, as: UTF8.self)
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
      return lines.filter(wanted).dropFirst(skipping).first
    }
    while found() == nil {
      guard try readSome() else { return found() }
    }
    return found()
  }

  /// Reads both pipes to their end: until every process that holds them
  /// (plugboard, its child, anything they left behind) closed them.
  func readToEnd() throws {
    while try readSome() {}
  }

  /// Reads what is waiting on either pipe; false once both ended.
  private func readSome() throws -> Bool {
    Blocking.requireBlockingThread("Waiting for plugboard's output")
    var watched: [pollfd] = []
    if output >= 0 { watched.append(pollfd(fd: output, events: Int16(POLLIN), revents: 0)) }
    if errors >= 0 { watched.append(pollfd(fd: errors, events: Int16(POLLIN), revents: 0)) }
    guard !watched.isEmpty else { return false }
    let ready = poll(&watched, nfds_t(watched.count), Int32(Self.limit.components.seconds * 1000))
    if ready < 0 && errno == EINTR { return true }
    guard ready > 0 else {
      kill(-pid, SIGKILL)
      throw Failure(
        description: "nothing came and the pipes stayed open for \(Self.limit): a process holds them; "
          + "stdout so far: \(stdoutText.debugDescription), stderr: \(stderrText.debugDescription)")
    }
    for entry in watched where entry.revents != 0 {
      var buffer = [UInt8](repeating: 0, count: 65536)
      let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 {
        close(entry.fd)
        if entry.fd == output { output = -1 } else { errors = -1 }
        continue
      }
      if entry.fd == output { stdout += buffer[..<count] } else { stderr += buffer[..<count] }
    }
    return true
  }

  /// Sends `signal` to plugboard alone.
  func signal(_ signal: Int32) { kill(pid, signal) }

  /// Sends `signal` to plugboard's whole process group.
  func signalGroup(_ signal: Int32) { kill(-pid, signal) }

  /// Reads both pipes to their end, then reaps plugboard.
  func finish() throws -> Ending {
    try readToEnd()
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let signal = status & 0x7f
    return signal == 0 ? .exited((status >> 8) & 0xff) : .killed(signal)
  }

  /// True when no process of plugboard's group is left (call after
  /// ``finish()``).
  var groupIsGone: Bool { kill(-pid, 0) != 0 && errno == ESRCH }

  /// Whether process `pid` (not a child of this one) has ended, waiting
  /// for its end up to ``limit``.
  static func hasEnded(_ pid: pid_t) throws -> Bool {
    Blocking.requireBlockingThread("Waiting for a process to end")
    let descriptor = plugboard_pidfd_open(pid)
    guard descriptor >= 0 else {
      if errno == ESRCH { return true }
      throw Failure(description: "pidfd_open(\(pid)): \(String(cString: strerror(errno)))")
    }
    defer { close(descriptor) }
    var watched = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
    while true {
      let ready = poll(&watched, 1, Int32(limit.components.seconds * 1000))
      if ready < 0 && errno == EINTR { continue }
      return ready > 0
    }
  }

  /// The processes whose parent is plugboard, now.
  var children: [pid_t] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { name -> pid_t? in
      guard let candidate = pid_t(name),
        let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return nil }
      // After "(comm)": state, then the parent's pid.
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      return fields.count > 1 && pid_t(fields[1]) == pid ? candidate : nil
    }
  }
}
