import PlugboardLaunch
import PlugboardSupervision

#if canImport(Glibc)
  import Glibc
#endif

/// Follows two supervised children at once, while a reload of `run`
/// brings a new deployment up beside the running one: the running child
/// (`old`) keeps serving, the new one (`new`) is followed through its
/// bring-up as any child is, each under its own ``ChildDeadlines``.
///
/// What happens, and when it ends:
/// - The new child says it is ready (its start hooks ran): it becomes the
///   deployment. The old one gets its stop request (SIGTERM: its stop
///   hooks, within its own limits), stop requests sent to the parent go
///   to the new one only from then, and the reload ends when the old one
///   has ended: ``Outcome/switched(new:old:oldEnding:upAfter:oldKilledAfter:)``.
///   An old child that has not ended within its stop limit (see
///   ``oldStopLimit``) is killed: one that ignores SIGTERM would otherwise
///   hold the reload, and every later one, forever.
/// - The new child ends first: the reload failed, the old one runs on
///   untouched: ``Outcome/failed(old:new:ending:)``.
/// - A stop request (SIGINT, SIGTERM) comes before the switch: the parent
///   passed it on to both, each stops once in its own way (the new one
///   during bring-up ends by it, within the stop grace; in its start hooks
///   it stops what it started), and the command ends as the old child's
///   ending says once both ended: ``Outcome/ended(deployment:ending:other:)``.
/// - The old child ends by itself before the switch (its application
///   ended, or crashed): the deployment has ended. The new one is asked to
///   stop, and the command ends as the old one's ending says.
///
/// It sleeps in `poll(2)` on both children's pipes and pidfds and the
/// request pipe, until the sooner of their deadlines; a reload asked for
/// meanwhile is left pending, for the follower of whichever child is the
/// deployment afterwards to start (see ``ChildFollower``). Where the
/// reload stands is one ``ReloadState``.
struct ReloadFollower {
  private(set) var old: FollowedChild
  private(set) var new: FollowedChild
  let requests: Int32
  let notifier: SystemdNotifier?
  /// When the reload began, in nanoseconds of `CLOCK_MONOTONIC`.
  let began: Int64
  private(set) var state = ReloadState.bringingUpBeside
  private var oldEnding: ChildEnding?
  private var newEnding: ChildEnding?
  /// The old child's stop limit, when it overran it and was killed.
  private var oldKilledAfter: Duration?

  init(old: FollowedChild, new: FollowedChild, requests: Int32, notifier: SystemdNotifier?, began: Int64) {
    (self.old, self.new, self.requests, self.notifier, self.began) = (old, new, requests, notifier, began)
  }

  enum Outcome {
    /// The new child ended, `ending`, before it was ready; the old one
    /// runs on.
    case failed(old: FollowedChild, new: FollowedChild, ending: ChildEnding)
    /// The new child is the deployment, up `upAfter` the reload began; the
    /// old one ended after its stop request, `oldEnding`, killed when it
    /// overran its stop limit (`oldKilledAfter`).
    case switched(
      new: FollowedChild, old: FollowedChild, oldEnding: ChildEnding, upAfter: Duration,
      oldKilledAfter: Duration?)
    /// Both ended: the command ends as `deployment`'s `ending` says;
    /// `other` is the child that was not the deployment.
    case ended(deployment: FollowedChild, ending: ChildEnding, other: FollowedChild)
  }

  /// How long the old child may take to end after its stop request at the
  /// switch: the limit it said its orderly stop keeps to (the
  /// application's time to end, each stop hook's and disposing's, each
  /// bounded by `hookTimeout`; see ``ServiceLifecycle/stopLimit``), else
  /// what that limit is for a deployment without hooks, plus its exit-time
  /// code's limit.
  static func oldStopLimit(_ watch: StageWatch) -> Duration {
    (watch.stopLimit ?? ServiceLifecycle.defaultHookTimeout * 2) + watch.exitLimit
  }

  private var stopRequested: Bool { plugboard_stop_request() != 0 }

  /// Follows both children until one of the outcomes.
  mutating func follow() -> Outcome {
    while true {
      if oldEnding == nil { old.refresh() }
      if newEnding == nil { new.refresh() }
      advance()
      tellSystemd()
      if let outcome { return outcome }
      stepOrSleep()
    }
  }

  /// Hands what happened since the last look to ``state``, and acts on
  /// each transition: switches over when the new child is ready, asks it
  /// to stop when the deployment ended before the switch.
  private mutating func advance() {
    if stopRequested { move(.stopRequested) }
    if state == .bringingUpBeside, newEnding == nil, oldEnding == nil, new.watch.ready {
      move(switchOver() ? .newReady(at: plugboard_monotonic_now()) : .stopRequested)
    }
    // The deployment's end first: it is the service's end.
    let ends: [ReloadState.Child] = state.deployment == .old ? [.old, .new] : [.new, .old]
    for child in ends where (child == .old ? oldEnding : newEnding) != nil { move(.ended(child)) }
  }

  private mutating func move(_ event: ReloadState.Event) {
    let before = state
    state = state.after(event)
    if before == .bringingUpBeside, event == .ended(.old) {
      Self.unlessAskedToStop { kill(new.pid, SIGTERM) }
    }
  }

  /// The outcome, once the state and the children's ends make one.
  private var outcome: Outcome? {
    switch state {
    case .bringingUpBeside, .switching: return nil
    case .servingOld:
      guard let newEnding else { return nil }
      return .failed(old: old, new: new, ending: newEnding)
    case .servingNew(let since):
      guard let oldEnding else { return nil }
      return .switched(
        new: new, old: old, oldEnding: oldEnding, upAfter: .nanoseconds(since - began),
        oldKilledAfter: oldKilledAfter)
    case .stopping(let deployment):
      guard let oldEnding, let newEnding else { return nil }
      return deployment == .old
        ? .ended(deployment: old, ending: oldEnding, other: new)
        : .ended(deployment: new, ending: newEnding, other: old)
    }
  }

  /// Runs `signal`, a stop request of the parent's own, unless a stop
  /// request came: that one was passed on already, and a second request
  /// from another sender would end the child at once, its stop hooks cut
  /// short. The forwarded signals wait meanwhile, so that none is passed
  /// on between the look and the signal.
  private static func unlessAskedToStop(_ signal: () -> Void) {
    plugboard_block_forwarded_signals()
    if plugboard_stop_request() == 0 { signal() }
    plugboard_unblock_forwarded_signals()
  }

  /// The new child is ready: from now on it gets the stop requests, the
  /// old one its own, and systemd hears that the reload is done. False
  /// when a stop request came first: there is no switch.
  private func switchOver() -> Bool {
    var switched = false
    Self.unlessAskedToStop {
      _ = plugboard_forward_signals(new.pid)
      kill(old.pid, SIGTERM)
      switched = true
    }
    if switched { notifier?.reloaded() }
    return switched
  }

  /// STOPPING=1 for a stop request, or when the deployment stops by
  /// itself; never for the old child's stop after the switch.
  private func tellSystemd() {
    guard let notifier else { return }
    let deployment = state.deployment == .old ? old : new
    if stopRequested || deployment.watch.stopping { notifier.stopping() }
  }

  /// Kills a child that overran a deadline, or sleeps until the sooner
  /// of the two children's deadlines (or systemd's next ping) and takes in
  /// what woke the parent.
  private mutating func stepOrSleep() {
    let now = plugboard_monotonic_now()
    let ping = notifier?.pingDeadline(now: now)
    var wait: Int32 = -1
    let stop = stopRequested
    let stopNew = stop || state == .stopping(deployment: .old)
    guard stopOldInTime(now: now, wait: &wait),
      Self.step(&old, &oldEnding, now: now, stop: stop, ping: ping, wait: &wait),
      Self.step(&new, &newEnding, now: now, stop: stopNew, ping: ping, wait: &wait)
    else { return }
    sleep(wait)
  }

  /// After the switch, kills the old child once its stop limit passed
  /// (false: the parent looks again at once), else shortens `wait` to it.
  private mutating func stopOldInTime(now: Int64, wait: inout Int32) -> Bool {
    guard case .switching(let since) = state, oldEnding == nil else { return true }
    let limit = Self.oldStopLimit(old.watch)
    let deadline = since + StageWatch.nanoseconds(limit)
    guard deadline <= now else {
      wait = ChildDeadlines.sooner(wait, ChildDeadlines.milliseconds(.nanoseconds(deadline - now)))
      return true
    }
    oldEnding = old.kill(then: .crash)
    oldKilledAfter = limit
    return false
  }

  /// Steps `child`, unless it has ended: kills it when a deadline passed
  /// (false: the parent looks again at once), else shortens `wait` to its
  /// next deadline.
  private static func step(
    _ child: inout FollowedChild, _ ending: inout ChildEnding?, now: Int64, stop: Bool, ping: Int64?,
    wait: inout Int32
  ) -> Bool {
    guard ending == nil else { return true }
    guard !child.pollEntries.isEmpty else {
      ending = child.waitForTheEnd()
      return false
    }
    let watch = child.watch
    switch child.deadlines.next(now: now, watch: watch, stopRequested: stop, ping: ping) {
    case .kill(_, let report):
      ending = child.kill(then: report)
      return false
    case .poll(let milliseconds, _):
      wait = ChildDeadlines.sooner(wait, milliseconds)
      return true
    }
  }

  /// Sleeps in `poll(2)` for at most `wait` milliseconds on both
  /// children's descriptors and the requests, and takes in what woke it.
  /// After a poll that failed, waits for each child's end, as
  /// ``ChildFollower`` does for one.
  private mutating func sleep(_ wait: Int32) {
    var watched: [pollfd] = []
    if oldEnding == nil { watched += old.pollEntries }
    if newEnding == nil { watched += new.pollEntries }
    let wake = Wakeup.sleep(on: watched, requests: requests, sparing: [old.pid, new.pid], milliseconds: wait)
    if oldEnding == nil { oldEnding = old.takeIn(wake) }
    if newEnding == nil { newEnding = new.takeIn(wake) }
  }
}
