/// The deadlines the parent holds over its supervised child, and the
/// arbitration between them: which comes first, what the parent does when
/// it passes, and how long it may sleep in `poll(2)` until then.
///
/// Four deadlines can bound the child: the stage's (see
/// ``StageWatch/wake(now:)``); exit-time code's, once the child announced
/// its exit; a crash report's, once the child's crash line came; and a stop
/// request's grace, once one came during bring-up. systemd's watchdog ping
/// bounds the sleep, never the child.
///
/// A value with no I/O: ``ChildFollower`` reads the clock, the record, the
/// stop request and the watchdog, hands them in, and acts on the ``Step``
/// it gets back.
struct ChildDeadlines: Equatable, Sendable {
  /// What bounds the parent's sleep, or passed.
  enum Deadline: Equatable, Sendable {
    case stage
    case exit
    case crashReport
    case stopGrace
    /// systemd's watchdog wants its next ping: it never passes, the
    /// parent pings and sleeps again.
    case watchdogPing
  }

  /// What the parent does next.
  enum Step: Equatable, Sendable {
    /// Sleep in `poll(2)` for at most `milliseconds` (-1: until a
    /// descriptor wakes it), bounded by `until` (nil: nothing pending).
    case poll(milliseconds: Int32, until: Deadline?)
    /// `overdue` passed: kill the child, reap it, then report `then`.
    case kill(overdue: Deadline, then: Report)
  }

  /// What the parent reports of a child it killed.
  enum Report: Equatable, Sendable {
    /// The crash, as far as the child's crash handler wrote it out.
    case crash
    /// A hang past `limit`: the stage timeout, or exit-time code's once
    /// the child announced its exit.
    case hang(limit: Duration)
  }

  /// When the crash report's time runs out, set once the crash line came.
  private(set) var crashReport: Int64?
  /// When a stop request's grace during bring-up runs out: the child ends
  /// by the request, or is killed then.
  private(set) var stopGrace: Int64?
  /// When exit-time code's time runs out, set once the child announced its
  /// exit (its code is plugin code: library destructors, `atexit`).
  private(set) var exit: Int64?

  /// The step to take at `now` (nanoseconds of `CLOCK_MONOTONIC`), given
  /// what the parent knows of the child (`watch`), whether a stop request
  /// came, and when systemd's watchdog wants its next ping (nil: no
  /// watchdog). Starts the deadlines the watch or the request begin.
  ///
  /// Kept out of line: inlined into ``ChildFollower``'s loop, Swift 6.3.1's
  /// optimiser (its copy propagation) breaks the ownership of the watch it
  /// borrows and the release build crashes the compiler. Called once per
  /// wake, the call costs nothing that matters.
  @inline(never)
  mutating func next(now: Int64, watch: StageWatch, stopRequested: Bool, ping: Int64?) -> Step {
    begin(now: now, watch: watch, stopRequested: stopRequested)
    let (wake, bound) = earliest(now: now, watch: watch)
    var wait: (milliseconds: Int32, until: Deadline?) = (-1, nil)
    switch wake {
    case .hung:
      let limit = exit != nil ? watch.exitLimit : watch.timeout
      return .kill(overdue: bound, then: watch.crash != nil ? .crash : .hang(limit: limit))
    case .at(let deadline): wait = (Self.milliseconds(.nanoseconds(deadline - now)), bound)
    case .never: break
    }
    if let ping {
      let untilPing = Self.milliseconds(.nanoseconds(max(ping - now, 0)))
      if wait.milliseconds < 0 || untilPing < wait.milliseconds { wait = (untilPing, .watchdogPing) }
    }
    return .poll(milliseconds: wait.milliseconds, until: wait.until)
  }

  /// Starts each deadline the child's state or a stop request begins; one
  /// started is never pushed back.
  private mutating func begin(now: Int64, watch: StageWatch, stopRequested: Bool) {
    if watch.crash != nil, crashReport == nil {
      crashReport = now + StageWatch.nanoseconds(Supervisor.crashReportTimeout)
    }
    if stopGrace == nil, watch.phase == .bringingUp, stopRequested {
      stopGrace = now + StageWatch.nanoseconds(Supervisor.stopGrace)
    }
    if watch.exiting != nil, exit == nil, watch.crash == nil {
      exit = now + StageWatch.nanoseconds(watch.exitLimit)
    }
  }

  /// The deadline that comes first and when: exit-time code's replaces
  /// the stage's, a crash report's replaces both, and the stop grace
  /// shortens whichever runs during bring-up (a tie keeps the other).
  private func earliest(now: Int64, watch: StageWatch) -> (StageWatch.Wake, Deadline) {
    func wake(at deadline: Int64) -> StageWatch.Wake { deadline <= now ? .hung : .at(deadline) }
    var earliest = (watch.wake(now: now), Deadline.stage)
    if let exit, crashReport == nil { earliest = (wake(at: exit), .exit) }
    if let crashReport { earliest = (wake(at: crashReport), .crashReport) }
    guard let stopGrace, watch.phase == .bringingUp else { return earliest }
    switch earliest.0 {
    case .hung: return earliest
    case .at(let deadline) where deadline <= stopGrace: return earliest
    default: return (wake(at: stopGrace), .stopGrace)
    }
  }

  /// The shorter of two `poll` waits in milliseconds, -1 being no limit:
  /// the parent following two children sleeps until the sooner of their
  /// deadlines (see ``ReloadFollower``).
  static func sooner(_ first: Int32, _ second: Int32) -> Int32 {
    if first < 0 { return second }
    if second < 0 { return first }
    return min(first, second)
  }

  /// `duration` in whole milliseconds, rounded up, as `poll` takes it.
  static func milliseconds(_ duration: Duration) -> Int32 {
    let (seconds, attoseconds) = duration.components
    guard seconds >= 0, attoseconds >= 0 || seconds > 0 else { return 0 }
    let total = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    return Int32(clamping: total)
  }
}
