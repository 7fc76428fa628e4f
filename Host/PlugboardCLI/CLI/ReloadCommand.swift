import PlugboardEngine
import PlugboardSupervision

#if canImport(Glibc)
  import Glibc
#endif

/// `plugboard reload`: asks a running `plugboard run` to reload its
/// deployment, by sending its supervising process SIGHUP (see
/// Docs/operating.md, "Reloading"). The running deployment says how the
/// reload went, on its standard error (the journal, under systemd).
///
/// The process is named by `--pid PID` or by the file `run --pid-file`
/// wrote. It must be a supervising `plugboard run` of the same user: a
/// SIGHUP to anything else would stop it (the supervised child) or do
/// who knows what (another program).
struct ReloadCommand {
  let options: ParsedOptions
  let console: any Console

  func execute() -> ExitStatus.RawValue {
    let name = CommandSpec.reload.name
    var target: pid_t
    switch requestedProcess() {
    case .success(let pid): target = pid
    case .failure(let error):
      for line in error.lines { console.err(line) }
      return ExitStatus.misuse.rawValue
    }
    if options[.pid] == nil, let path = options[.pidFile] {
      switch PidFile.read(path) {
      case .success(let pid): target = pid
      case .failure(let failure):
        console.err("plugboard: \(name): \(failure.message)")
        return ExitStatus.problems.rawValue
      }
    }
    // A pidfd taken before the process is examined names that process
    // alone: if it exits and its pid is given to another meanwhile, the
    // signal fails rather than reach the other.
    let pidfd = plugboard_pidfd_open(target)
    let opened = errno
    defer { if pidfd >= 0 { close(pidfd) } }
    if pidfd < 0, opened == ESRCH {
      console.err("plugboard: \(name): no process \(target) is running")
      return ExitStatus.problems.rawValue
    }
    if let refusal = SupervisorProcess.refusal(of: target) {
      console.err("plugboard: \(name): \(refusal)")
      return ExitStatus.problems.rawValue
    }
    // A kernel before 5.3 has no pidfds: the signal goes by pid, with the reuse window pidfds close.
    let sent = pidfd >= 0 ? plugboard_pidfd_send_signal(pidfd, SIGHUP) : kill(target, SIGHUP)
    guard sent == 0 else {
      let reason =
        errno == ESRCH
        ? "it exited after it was examined; nothing was signalled"
        : String(cString: strerror(errno))
      console.err("plugboard: \(name): could not signal pid \(target): \(reason)")
      return ExitStatus.problems.rawValue
    }
    console.out(
      "plugboard: \(name): asked pid \(target) to reload; it reports the outcome on its standard error "
        + "(under systemd, the journal)")
    return ExitStatus.healthy.rawValue
  }

  /// The pid `--pid` gives; 0 when `--pid-file` names the file that holds
  /// it.
  private func requestedProcess() -> Result<pid_t, UsageError> {
    let name = CommandSpec.reload.name
    switch (options[.pid], options[.pidFile]) {
    case (let text?, nil):
      guard let pid = pid_t(text), pid > 1 else {
        return .failure(
          UsageError(
            message: "\(OptionSpec.pid.name) takes a process id, found '\(Terminal.sanitize(text))'",
            command: name
          ))
      }
      return .success(pid)
    case (nil, _?):
      // Read, and vetted, by the caller: an untrusted file is no misuse.
      return .success(0)
    default:
      return .failure(
        UsageError(
          message:
            "give the running plugboard's process: \(OptionSpec.pid.name) PID, or \(OptionSpec.pidFile.name) PATH "
            + "as 'run --pid-file' wrote it", command: name))
    }
  }
}

/// What `/proc` says of a process that `plugboard reload` is asked to
/// signal: whether it is a supervising `plugboard run` of this user.
enum SupervisorProcess {
  /// Why `pid` is not one, with the fix; nil when it is.
  static func refusal(of pid: pid_t) -> String? {
    guard let owner = field(pid, "Uid").flatMap({ uid_t($0) }) else { return "no process \(pid) is running" }
    guard owner == getuid() else {
      return "process \(pid) belongs to another user; run plugboard reload as that user"
    }
    guard isPlugboardRun(pid) else {
      return "process \(pid) is not a running 'plugboard run'; give the pid 'run --pid-file' wrote, "
        + "or systemd's MainPID (systemctl show -p MainPID UNIT)"
    }
    if let parent = field(pid, "PPid").flatMap({ pid_t($0) }), isPlugboardRun(parent) {
      return "process \(pid) is the supervised child of 'plugboard run'; a SIGHUP would stop it: "
        + "give its supervising process, pid \(parent)"
    }
    return nil
  }

  /// Whether `pid` runs plugboard (the same executable as this process),
  /// with the command `run`.
  private static func isPlugboardRun(_ pid: pid_t) -> Bool {
    guard let name = text("/proc/\(pid)/comm")?.split(separator: "\n").first,
      let own = text("/proc/self/comm")?.split(separator: "\n").first, name == own,
      let line = text("/proc/\(pid)/cmdline")
    else { return false }
    let arguments = line.split(separator: "\0", omittingEmptySubsequences: false)
    return arguments.count > 1 && arguments.dropFirst().contains(Substring(Supervisor.runCommand))
  }

  /// The first word of `name:` in `/proc/PID/status` (the real user id
  /// for `Uid`).
  private static func field(_ pid: pid_t, _ name: String) -> String? {
    guard let status = text("/proc/\(pid)/status") else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
      return line.dropFirst(name.count + 1).split(whereSeparator: { $0 == "\t" || $0 == " " }).first.map(
        String.init)
    }
    return nil
  }

  private static func text(_ path: String) -> String? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while bytes.count < 1 << 20 {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
