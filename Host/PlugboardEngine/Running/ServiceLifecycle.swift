import PlugboardKit
import Synchronization

/// Starts a deployment's services that have start or stop hooks, in
/// dependency order, and stops them in reverse (see ``LifecyclePlan`` and
/// `Docs/lifecycle.md`).
///
/// Every hook runs with the time limit ``limit``. A service counts as
/// started once its start hook returned (or when it has none); only
/// started services are stopped, each once.
public final class ServiceLifecycle: Sendable {
  /// Why ``start()`` did not start every service. What had started was
  /// stopped, in reverse, before it was thrown.
  public struct StartError: Error, Sendable, CustomStringConvertible {
    /// The hook that failed, timed out or was interrupted.
    public let failure: LifecycleFailure
    /// The services stopped because of it, in the order they stopped.
    public let stopped: [LifecycleService]
    /// Stop hooks that failed or timed out meanwhile.
    public let stopFailures: [LifecycleFailure]

    public var description: String { failure.description }
  }

  /// The time limit of one hook when neither the manifest's `hookTimeout`
  /// nor `--hook-timeout` sets it: 30 s, long enough to connect to a
  /// database that is still starting, short enough to stop well inside a
  /// service manager's own stop timeout (systemd's default is 90 s).
  public static let defaultHookTimeout = Duration.seconds(30)

  let container: Container
  /// Start order.
  public let services: [LifecycleService]
  /// The time limit of each hook.
  public let limit: Duration
  /// How long an orderly stop takes at most, once asked for: the
  /// application's time to end after the request, each stop hook's, and
  /// disposing the container's, each bounded by ``limit``.
  var stopLimit: Duration { limit * (services.filter(\.hasStopHook).count + 2) }
  /// The services started and not yet stopped, in start order.
  private let started = Mutex<[LifecycleService]>([])
  /// The command's feedback, which says how long each hook took with
  /// `--verbose`; nil in a program that embeds the host.
  private let feedback: StageFeedback?

  init(container: Container, services: [LifecycleService], limit: Duration, feedback: StageFeedback? = nil) {
    self.container = container
    self.services = services
    self.limit = limit
    self.feedback = feedback
  }

  /// The lifecycle of `deployment`'s hooked services, in the order its
  /// dependency graph gives (see `Docs/lifecycle.md`), each hook limited to
  /// `limit` (by default the manifest's `hookTimeout`, else 30 s). Run
  /// ``DeploymentChecker`` first: a hook on a registration that cannot
  /// carry one is its error, and such a service is left out here.
  package convenience init(deployment: Deployment, limit: Duration? = nil) {
    let container = deployment.container
    self.init(
      container: container, services: LifecyclePlan(container: container).services,
      limit: limit ?? deployment.manifest.hookTimeout ?? Self.defaultHookTimeout,
      feedback: deployment.progress.feedback)
  }

  /// The lifecycle of `container`'s hooked services (see
  /// ``init(deployment:limit:)``), each hook limited to `limit`.
  public convenience init(container: Container, limit: Duration = defaultHookTimeout) {
    self.init(container: container, services: LifecyclePlan(container: container).services, limit: limit)
  }

  /// Starts every service in order. If a hook throws, does not return
  /// within ``limit``, or the calling task is cancelled (shut-down was
  /// asked for), stops the services already started, in reverse, and
  /// throws a ``StartError`` naming the plugin, service and hook.
  public func start() async throws(StartError) {
    for service in services {
      if Task.isCancelled {
        throw await abandonStart(
          LifecycleFailure(hook: .start, registration: service.registration, reason: .interrupted))
      }
      if service.hasStartHook, let failure = await run(.start, of: service) {
        throw await abandonStart(failure)
      }
      started.withLock { $0.append(service) }
    }
  }

  /// Stops the started services in reverse start order, each with its
  /// stop hook (if any) and the time limit; a hook that fails or times out
  /// does not keep the others from running. Returns those failures. Runs
  /// even when the calling task is cancelled; a second call stops nothing.
  public func stop() async -> [LifecycleFailure] {
    let toStop = started.withLock { started in
      defer { started.removeAll() }
      return started
    }
    // Not in the caller's task: shut-down often begins by cancelling it,
    // and the stop hooks must still get their full time.
    return await Task {
      var failures: [LifecycleFailure] = []
      for service in toStop.reversed() where service.hasStopHook {
        if let failure = await self.run(.stop, of: service) { failures.append(failure) }
      }
      return failures
    }.value
  }

  private func abandonStart(_ failure: LifecycleFailure) async -> StartError {
    let stopped = started.withLock { Array($0.reversed()) }
    let stopFailures = await stop()
    return StartError(failure: failure, stopped: stopped, stopFailures: stopFailures)
  }

  /// Runs one hook within the limit; the failure, or nil when it returned.
  private func run(_ hook: LifecycleHook, of service: LifecycleService) async -> LifecycleFailure? {
    let container = container
    let clock = ContinuousClock()
    let began = clock.now
    let outcome = await HookDeadline.run(limit: limit, interruptible: true) {
      switch hook {
      case .start: try await service.start(in: container)
      case .stop: try await service.stop(in: container)
      }
    }
    feedback?.hookFinished(hook, of: service, took: clock.now - began)
    let reason: LifecycleFailure.Reason
    switch outcome {
    case .finished: return nil
    // Resolving the service itself failed, before the hook was called.
    case .failed(let error as ResolutionError) where error.requested == service.key:
      reason = .instanceNotMade("\(error)")
    case .failed(let error): reason = .threw("\(error)")
    case .timedOut: reason = .timedOut(limit)
    case .interrupted: reason = .interrupted
    @unknown default: reason = .threw("the hook ended in a way this host does not know")
    }
    return LifecycleFailure(hook: hook, registration: service.registration, reason: reason)
  }
}
