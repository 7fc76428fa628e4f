import PlugboardSupervision

#if canImport(Glibc)
  import Glibc
#endif

/// One supervised child as the parent follows it: its process, its
/// progress pipe and record, and what the parent learnt of it so far (the
/// ``StageWatch``, the partial line, the ``ChildDeadlines`` started).
///
/// A value the followers step: ``ChildFollower`` follows one, and
/// ``ReloadFollower`` two at once, the running deployment and the one a
/// reload brings up beside it. Either hands it to the other as it is,
/// so that nothing learnt of a child is lost when a reload begins or ends.
struct FollowedChild {
  let pid: pid_t
  let progress: Int32
  let record: StageRecord
  /// Readable once the child has exited; -1 on a kernel without pidfds.
  let pidfd: Int32
  var watch: StageWatch
  var deadlines = ChildDeadlines()
  private var lines = LineBuffer()
  private(set) var pipeOpen = true

  init(pid: pid_t, progress: Int32, record: StageRecord, timeout: Duration?, exitTimeout: Duration?) {
    self.pid = pid
    self.progress = progress
    self.record = record
    watch = StageWatch(timeout: timeout, exitTimeout: exitTimeout)
    pidfd = plugboard_pidfd_open(pid)
    _ = fcntl(progress, F_SETFL, fcntl(progress, F_GETFL) | O_NONBLOCK)
  }

  /// Takes in the stage the child last recorded.
  mutating func refresh() {
    if let snapshot = record.read() { watch.apply(snapshot) }
  }

  /// Takes in what the child wrote and recorded so far, without waiting:
  /// before a decision that depends on where it is.
  mutating func catchUp() {
    if pipeOpen, !consume() { pipeOpen = false }
    refresh()
  }

  /// The descriptors to sleep on for this child: its pipe, while open,
  /// and its pidfd.
  var pollEntries: [pollfd] {
    var entries: [pollfd] = []
    if pipeOpen { entries.append(pollfd(fd: progress, events: Int16(POLLIN), revents: 0)) }
    if pidfd >= 0 { entries.append(pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)) }
    return entries
  }

  /// Takes in what woke the parent among `woken` (the entries of every
  /// descriptor it slept on); the child's wait status once it has ended.
  mutating func take(_ woken: [pollfd]) -> Int32? {
    let revents = { (fd: Int32) in woken.first { $0.fd == fd }?.revents ?? 0 }
    if pipeOpen, revents(progress) != 0, !consume() { pipeOpen = false }
    if pidfd >= 0, revents(pidfd) != 0 { return reap(blocking: false) }
    // No pidfd (an old kernel) and the pipe is closed: the child is
    // ending; wait for it.
    if pidfd < 0, !pipeOpen { return reap(blocking: true) ?? 0 }
    return nil
  }

  /// Kills the child that overran a deadline and reaps it: how it ended,
  /// as `report` says to tell it.
  mutating func kill(then report: ChildDeadlines.Report) -> ChildEnding {
    Glibc.kill(pid, SIGKILL)
    let status = reap(blocking: true) ?? 0
    switch report {
    case .crash: return ended(status)
    case .hang(let limit): return .hung(limit)
    }
  }

  /// The child's ending, once it has ended with `status`, with all it
  /// wrote and recorded before taken in.
  mutating func ended(_ status: Int32) -> ChildEnding {
    _ = consume()
    refresh()
    return ChildEnding(waitStatus: status)
  }

  /// Waits for the child's end: for a poll that failed, where nothing
  /// else can tell.
  mutating func waitForTheEnd() -> ChildEnding {
    ended(reap(blocking: true) ?? 0)
  }

  /// Closes what the parent holds of a child that has ended, and removes
  /// the private folder it died holding (see
  /// ``PrivateOrigin/removeLeftover(_:)``).
  func release() {
    if let folder = watch.privateFolder { PrivateOrigin.removeLeftover(folder) }
    if pidfd >= 0 { close(pidfd) }
    close(progress)
    record.destroy()
  }

  /// What a child forked beside this one must not keep: the parent's ends
  /// of this one's pipe and pidfd, and its record.
  func forgetInNewChild() {
    if pidfd >= 0 { close(pidfd) }
    close(progress)
    record.destroy()
  }

  /// Reads the progress events waiting on the pipe into the watch; false
  /// once the pipe has reached its end.
  private mutating func consume() -> Bool {
    while let chunk = readChunk() {
      guard !chunk.isEmpty else { return false }
      for line in lines.append(chunk) {
        guard let event = ProgressEvent(line: line), event.travelsOnThePipe else { continue }
        if case .making = event, watch.making.count >= ChildFollower.maximumChainLinks { continue }
        // Ready is believed only once bring-up is over, as the record
        // (not a line plugin code could have written) says.
        if case .ready = event { refresh() }
        watch.apply(event)
      }
    }
    return true
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
