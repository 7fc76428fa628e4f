import PlugboardLaunch
import PlugboardSupervision

#if canImport(Glibc)
  import Glibc
#endif

// Reloading `run`: a new child brought up beside the running one, which it
// replaces only once it is ready (see ``ReloadFollower`` and
// Docs/operating.md, "Reloading").
extension Supervisor {
  enum Followed {
    /// This process is a new child a reload forked: it goes on to run
    /// the command.
    case inNewChild
    /// The deployment's child ended, this way.
    case ended(FollowedChild, ChildEnding)
  }

  /// Follows the deployment's child to its end, through every reload
  /// asked for meanwhile: the child that is the deployment changes when
  /// one succeeds.
  func followDeployment(_ first: FollowedChild, requests: Int32, notifier: SystemdNotifier?) -> Followed {
    var follower = ChildFollower(child: first, requests: requests, notifier: notifier)
    while true {
      switch follower.follow() {
      case .ended(let ending): return .ended(follower.child, ending)
      case .reload(let running):
        switch reload(running, requests: requests, notifier: notifier) {
        case .inNewChild: return .inNewChild
        case .follow(let deployment): follower.child = deployment
        case .ended(let deployment, let ending): return .ended(deployment, ending)
        }
      }
    }
  }

  enum Reloaded {
    case inNewChild
    /// The child that is the deployment now: the new one, or the one
    /// that was running when the reload failed.
    case follow(FollowedChild)
    /// The deployment ended during the reload.
    case ended(FollowedChild, ChildEnding)
  }

  /// Brings a new child up beside `running` and follows both until one is
  /// the deployment.
  private func reload(_ running: FollowedChild, requests: Int32, notifier: SystemdNotifier?) -> Reloaded {
    let began = plugboard_monotonic_now()
    StandardError.write(
      "plugboard: \(command): reloading: bringing a new deployment up beside the running one",
      priority: .notice)
    notifier?.reloading(monotonicMicroseconds: began / 1000)
    if let replaced = HostImage.replaced() {
      let reason =
        "plugboard itself was replaced on disk (\(Terminal.sanitize(replaced.path)) is not the file it runs), "
        + "and a reload runs the code it started with: restart it to run the new one"
      reportFailure(
        ReloadReport(reason: reason, took: .nanoseconds(plugboard_monotonic_now() - began)), notifier)
      return .follow(running)
    }
    switch startChild(quarantine: [:], beside: running) {
    case .inChild: return .inNewChild
    case .failed:
      let reason = "could not start a new process: \(String(cString: strerror(errno)))"
      reportFailure(
        ReloadReport(reason: reason, took: .nanoseconds(plugboard_monotonic_now() - began)), notifier)
      return .follow(running)
    case .started(let new):
      plugboard_forward_also(new.pid)
      plugboard_unblock_forwarded_signals()
      var follower = ReloadFollower(
        old: running, new: new, requests: requests, notifier: notifier, began: began)
      return conclude(follower.follow(), began: began, notifier: notifier)
    }
  }

  /// Closes what the parent held of the child that is no longer
  /// followed, and says how the reload went. What that child left behind
  /// (a process plugin code started) is not ended here: once orphaned it
  /// cannot be told from what the other child started, which must live.
  /// Each is reaped as it ends, and the rest ends with the deployment.
  private func conclude(_ outcome: ReloadFollower.Outcome, began: Int64, notifier: SystemdNotifier?)
    -> Reloaded
  {
    switch outcome {
    case .failed(let old, let new, let ending):
      new.release()
      _ = plugboard_forward_signals(old.pid)
      var report = failure(ending, new.watch, took: Duration.nanoseconds(plugboard_monotonic_now() - began))
      if new.watch.inventory.isComplete {
        report.changes = DeploymentInventory.changes(from: old.watch.inventory, to: new.watch.inventory)
      }
      reportFailure(report, notifier)
      return .follow(old)
    case .switched(let new, let old, let oldEnding, let upAfter, let oldKilledAfter):
      old.release()
      let lines = ReloadReport.success(
        upAfter: upAfter, old: old, new: new, oldEnding: oldEnding, oldKilledAfter: oldKilledAfter)
      for line in lines {
        StandardError.write(line, priority: .notice)
      }
      return .follow(new)
    case .ended(let deployment, let ending, let other):
      other.release()
      return .ended(deployment, ending)
    }
  }

  /// Why the new child did not come up, as `run` would have reported it
  /// at start: the child's own report is on standard error already when
  /// it ended with a status of its own; the parent's lines otherwise.
  private func failure(_ ending: ChildEnding, _ watch: StageWatch, took: Duration) -> ReloadReport {
    switch decide(ending, watch) {
    case .exit(let status):
      return ReloadReport(reason: Self.meaning(ofStatus: status), took: took)
    case .report(let lines, let status):
      return ReloadReport(lines: lines, reason: summary(of: lines, status: status), took: took)
    case .quarantine(_, let problem):
      // At start the plugin would be set aside and named; here it is the
      // reason, said once.
      return ReloadReport(reason: Terminal.sanitize("\(problem)"), took: took)
    case .stop(let signal, let lines):
      return ReloadReport(
        lines: lines, reason: "the new deployment was stopped by \(SignalName.name(signal))", took: took)
    }
  }

  private func reportFailure(_ report: ReloadReport, _ notifier: SystemdNotifier?) {
    for line in report.failureLines(command: command) { StandardError.write(line, priority: .error) }
    notifier?.reloadFailed(report.reason)
  }
}
