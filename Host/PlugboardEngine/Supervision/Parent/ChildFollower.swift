import PlugboardSupervision

#if canImport(Glibc)
  import Glibc
#endif

/// Follows one supervised child to its end: enforces the stage deadline
/// from the shared ``StageRecord``, reads its rare progress events, and
/// reaps it.
///
/// It sleeps in `poll(2)` on the progress pipe and on a pidfd of the child
/// (readable once the child has exited, even if a grandchild still holds
/// the pipe) until the current stage's deadline, so nothing spins, nothing
/// sleeps a fixed time, and a healthy bring-up wakes it only at its end.
/// Which deadline comes first, and what its passing means, is
/// ``ChildDeadlines``' to say.
struct ChildFollower {
  let pid: pid_t
  let progress: Int32
  /// Readable when the parent received a stop request or a process plugin
  /// code left behind ended (see `plugboard_forward_signals`); -1 when
  /// there is none.
  let requests: Int32
  let record: StageRecord
  let timeout: Duration?
  /// `--exit-timeout`, when given.
  var exitTimeout: Duration? = nil
  /// Tells systemd what the child reports, and pings its watchdog; nil
  /// when plugboard does not run under systemd's notify protocol.
  var notifier: SystemdNotifier? = nil

  /// A line longer than this is not a progress event: it is dropped.
  static let maximumLineLength = 64 * 1024
  /// At most this many links of a crash's resolution chain are kept.
  static let maximumChainLinks = 64

  /// Follows the child to its end, then removes what it left behind that
  /// plugboard knows of: a pinned plugin's private folder, when the child
  /// died inside `dlopen` (see ``PrivateOrigin/removeLeftover(_:)``).
  func follow() -> (ChildEnding, StageWatch) {
    let (ending, watch) = followToTheEnd()
    if let folder = watch.privateFolder { PrivateOrigin.removeLeftover(folder) }
    return (ending, watch)
  }

  private func followToTheEnd() -> (ChildEnding, StageWatch) {
    var watch = StageWatch(timeout: timeout, exitTimeout: exitTimeout)
    var lines = LineBuffer()
    let pidfd = plugboard_pidfd_open(pid)
    defer { if pidfd >= 0 { close(pidfd) } }
    _ = fcntl(progress, F_SETFL, fcntl(progress, F_GETFL) | O_NONBLOCK)
    var pipeOpen = true
    var deadlines = ChildDeadlines()
    while true {
      if let snapshot = record.read() { watch.apply(snapshot) }
      let now = plugboard_monotonic_now()
      tellSystemd(watch)
      let ping = notifier?.pingDeadline(now: now)
      let step = deadlines.next(
        now: now, watch: watch, stopRequested: plugboard_stop_request() != 0, ping: ping)
      let wait: Int32
      switch step {
      case .kill(_, let report):
        kill(pid, SIGKILL)
        let status = reap(blocking: true) ?? 0
        switch report {
        case .crash: return ended(status, &watch, &lines)
        case .hang(let limit): return (.hung(limit), watch)
        }
      case .poll(let milliseconds, _): wait = milliseconds
      }
      if let status = sleepUntilWoken(wait, pidfd: pidfd, pipeOpen: &pipeOpen, &watch, &lines) {
        return ended(status, &watch, &lines)
      }
    }
  }

  /// Sleeps in `poll(2)` for at most `wait` milliseconds (-1: no limit) on
  /// the progress pipe, the stop requests and the child's pidfd, and takes
  /// in what woke it; the child's wait status once it has ended.
  private func sleepUntilWoken(
    _ wait: Int32, pidfd: Int32, pipeOpen: inout Bool, _ watch: inout StageWatch, _ lines: inout LineBuffer
  ) -> Int32? {
    var watched: [pollfd] = []
    if pipeOpen { watched.append(pollfd(fd: progress, events: Int16(POLLIN), revents: 0)) }
    if requests >= 0 { watched.append(pollfd(fd: requests, events: Int16(POLLIN), revents: 0)) }
    if pidfd >= 0 { watched.append(pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)) }
    // No pidfd (an old kernel) and the pipe is closed: the child is
    // ending; wait for it.
    guard !watched.isEmpty else { return reap(blocking: true) ?? 0 }
    let ready = poll(&watched, nfds_t(watched.count), wait)
    if ready < 0 && errno != EINTR { return reap(blocking: true) ?? 0 }
    if ready <= 0 { return nil }
    if pipeOpen, watched[0].revents != 0, !consume(&watch, &lines) { pipeOpen = false }
    // The request itself is kept by the handler; the bytes only wake.
    if requests >= 0, watched.contains(where: { $0.fd == requests && $0.revents != 0 }) {
      drainRequests()
      plugboard_reap_strays(pid)
    }
    let childEnded = pidfd >= 0 && watched[watched.count - 1].revents != 0
    return childEnded ? reap(blocking: false) : nil
  }

  /// Reads the progress events waiting on the pipe into `watch`; false
  /// once the pipe has reached its end.
  private func consume(_ watch: inout StageWatch, _ lines: inout LineBuffer) -> Bool {
    while let chunk = readChunk() {
      guard !chunk.isEmpty else { return false }
      for line in lines.append(chunk) {
        guard let event = ProgressEvent(line: line), event.travelsOnThePipe else { continue }
        if case .making = event, watch.making.count >= Self.maximumChainLinks { continue }
        // Ready is believed only once bring-up is over, as the record
        // (not a line plugin code could have written) says.
        if case .ready = event, let snapshot = record.read() { watch.apply(snapshot) }
        watch.apply(event)
      }
    }
    return true
  }

  /// What the child reported, for systemd; also at its end, since the
  /// child may report and end within one wake.
  private func tellSystemd(_ watch: StageWatch) {
    guard let notifier else { return }
    if watch.ready { notifier.ready() }
    if watch.stopping || plugboard_stop_request() != 0 { notifier.stopping() }
  }

  /// The child's ending, once it has ended with `status`, and all it wrote
  /// and recorded before.
  private func ended(_ status: Int32, _ watch: inout StageWatch, _ lines: inout LineBuffer)
    -> (ChildEnding, StageWatch)
  {
    _ = consume(&watch, &lines)
    if let snapshot = record.read() { watch.apply(snapshot) }
    tellSystemd(watch)
    return (ChildEnding(waitStatus: status), watch)
  }

  private func drainRequests() {
    var bytes = [UInt8](repeating: 0, count: 64)
    while bytes.withUnsafeMutableBytes({ read(requests, $0.baseAddress, $0.count) }) > 0 {}
  }

  /// The next bytes of the pipe; empty at its end; nil when none are
  /// waiting.
  private func readChunk() -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(progress, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else { return nil }
      return Array(buffer[..<count])
    }
  }

  /// The child's wait status, once it has ended.
  private func reap(blocking: Bool) -> Int32? {
    var status: Int32 = 0
    while true {
      let result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
      if result < 0 && errno == EINTR { continue }
      return result == pid ? status : nil
    }
  }
}

/// Bytes in, complete lines out; a partial line waits for the rest, and
/// one longer than ``ChildFollower/maximumLineLength`` is dropped.
struct LineBuffer {
  private var pending: [UInt8] = []
  private var discarding = false

  mutating func append(_ bytes: [UInt8]) -> [Substring] {
    var lines: [Substring] = []
    for byte in bytes {
      if byte == UInt8(ascii: "\n") {
        if !discarding { lines.append(Substring(String(decoding: pending, as: UTF8.self))) }
        pending.removeAll(keepingCapacity: true)
        discarding = false
      } else if !discarding {
        pending.append(byte)
        if pending.count > ChildFollower.maximumLineLength {
          pending.removeAll()
          discarding = true
        }
      }
    }
    return lines
  }
}
