import PlugboardSupervision

#if canImport(Glibc)
  import Glibc
#endif

/// Follows one supervised child to its end: enforces the stage deadline
/// from the shared ``StageRecord``, reads its rare progress events, and
/// reaps it. For `run`, it also hands a ready child to a reload when one
/// is asked for (SIGHUP; see ``ReloadFollower``).
///
/// It sleeps in `poll(2)` on the progress pipe and on a pidfd of the child
/// (readable once the child has exited, even if a grandchild still holds
/// the pipe) until the current stage's deadline, so nothing spins, nothing
/// sleeps a fixed time, and a healthy bring-up wakes it only at its end.
/// Which deadline comes first, and what its passing means, is
/// ``ChildDeadlines``' to say.
struct ChildFollower {
  /// The child, and what the parent learnt of it so far: from its fork,
  /// or from the reload that made it the deployment.
  var child: FollowedChild
  /// Readable when the parent received a stop request, a reload request,
  /// or a process plugin code left behind ended (see
  /// `plugboard_forward_signals`); -1 when there is none.
  let requests: Int32
  /// Tells systemd what the child reports, and pings its watchdog; nil
  /// when plugboard does not run under systemd's notify protocol.
  var notifier: SystemdNotifier? = nil

  /// A line longer than this is not a progress event: it is dropped.
  static let maximumLineLength = 64 * 1024
  /// At most this many links of a crash's resolution chain are kept.
  static let maximumChainLinks = 64

  /// How following a child ended.
  enum Outcome {
    /// The child ended, this way (``child`` holds what it reported).
    case ended(ChildEnding)
    /// A reload was asked for while the child runs, ready: the child is
    /// handed back, still running, to be followed beside the new one.
    case reload(FollowedChild)
  }

  /// Follows the child to its end, or until a reload is asked for.
  mutating func follow() -> Outcome {
    while true {
      child.refresh()
      // Only when SIGHUP reloads (`plugboard_reload_on_hangup`).
      if plugboard_take_reload_request() != 0, let outcome = answerHangup() { return outcome }
      tellSystemd()
      let now = plugboard_monotonic_now()
      let ping = notifier?.pingDeadline(now: now)
      let watch = child.watch
      let step = child.deadlines.next(
        now: now, watch: watch, stopRequested: plugboard_stop_request() != 0, ping: ping)
      switch step {
      case .kill(_, let report):
        let ending = child.kill(then: report)
        tellSystemd()
        return .ended(ending)
      case .poll(let milliseconds, _):
        if let ending = sleepUntilWoken(milliseconds) {
          tellSystemd()
          return .ended(ending)
        }
      }
    }
  }

  /// What a SIGHUP kept for a reload does, once the parent took in all
  /// the child said before it: hands a ready child to a reload; stops a
  /// child still coming up, as SIGHUP did before reloads (so a SIGHUP sent
  /// on seeing the application's first line reloads, however late the
  /// parent reads the child's ready); and is dropped, with a warning, when
  /// the deployment is stopping.
  private mutating func answerHangup() -> Outcome? {
    child.catchUp()
    let watch = child.watch
    guard watch.ready else {
      plugboard_hangup_stops()
      return nil
    }
    guard !watch.stopping, watch.exiting == nil, watch.crash == nil, plugboard_stop_request() == 0
    else {
      StandardError.write(
        "plugboard: \(Supervisor.runCommand): reload ignored: the deployment is stopping", priority: .warning)
      return nil
    }
    return .reload(child)
  }

  /// Sleeps in `poll(2)` for at most `wait` milliseconds (-1: no limit) on
  /// the child's descriptors and the requests, and takes in what woke it;
  /// the child's ending once it has ended.
  private mutating func sleepUntilWoken(_ wait: Int32) -> ChildEnding? {
    let entries = child.pollEntries
    guard !entries.isEmpty else { return child.waitForTheEnd() }
    return child.takeIn(
      Wakeup.sleep(on: entries, requests: requests, sparing: [child.pid], milliseconds: wait))
  }

  /// What the child reported, for systemd; also at its end, since the
  /// child may report and end within one wake.
  private func tellSystemd() {
    guard let notifier else { return }
    if child.watch.ready { notifier.ready() }
    if child.watch.stopping || plugboard_stop_request() != 0 { notifier.stopping() }
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
