/// Where a reload of `run` stands (Docs/operating.md, "Reloading"), and
/// what moves it on: a value with no I/O. ``ReloadFollower`` takes in what
/// the two children did, hands it in as an ``Event``, and acts on the
/// state it gets back.
///
/// The transitions, and nothing else:
///
///     bringingUpBeside --new ready-------> switching
///     bringingUpBeside --new ended-------> servingOld       (the reload failed)
///     bringingUpBeside --old ended-------> stopping(old)    (the service ended; the new one is asked to stop)
///     bringingUpBeside --stop request----> stopping(old)    (both got the request)
///     switching        --old ended-------> servingNew       (the reload succeeded)
///     switching        --new ended-------> stopping(new)    (the service ended; the old one is stopping already)
///
/// A stop request after the switch is the new deployment's, which is
/// followed on as the deployment; `stopping` and the serving states are
/// where a reload ends. When both children end within one wake, the end of
/// the child that is the deployment is handed in first (see
/// ``deployment``), so that the command ends as the deployment's ending
/// says.
enum ReloadState: Equatable, Sendable {
  enum Child: Equatable, Sendable {
    case old
    case new
  }

  enum Event: Equatable, Sendable {
    /// The new child's start hooks ran, and it took over at `at`
    /// (nanoseconds of `CLOCK_MONOTONIC`).
    case newReady(at: Int64)
    case ended(Child)
    /// A stop request (SIGINT, SIGTERM) came to the parent.
    case stopRequested
  }

  /// The old child serves; the new one comes up beside it.
  case bringingUpBeside
  /// The new child took over at `since`; the old one was asked to stop and
  /// is followed until it has ended, within its stop limit.
  case switching(since: Int64)
  /// The deployment is ending: the command ends as `deployment`'s ending
  /// says, once both children ended.
  case stopping(deployment: Child)
  /// The reload failed: the old child serves on, alone.
  case servingOld
  /// The reload succeeded: the new child, which took over at `since`,
  /// serves alone.
  case servingNew(since: Int64)

  /// The child that is the deployment in this state: the one whose end is
  /// the service's end.
  var deployment: Child {
    switch self {
    case .bringingUpBeside, .servingOld: .old
    case .switching, .servingNew: .new
    case .stopping(let deployment): deployment
    }
  }

  /// The state `event` leads to; the same state for an event that does
  /// not move it.
  func after(_ event: Event) -> ReloadState {
    switch (self, event) {
    case (.bringingUpBeside, .newReady(let at)): .switching(since: at)
    case (.bringingUpBeside, .ended(.new)): .servingOld
    case (.bringingUpBeside, .ended(.old)), (.bringingUpBeside, .stopRequested): .stopping(deployment: .old)
    case (.switching(let since), .ended(.old)): .servingNew(since: since)
    case (.switching, .ended(.new)): .stopping(deployment: .new)
    default: self
    }
  }
}
