import Synchronization

/// A request to stop the application, once it comes, and how long the
/// application has to stop: what a ``DrainingApplication`` is given to stop
/// accepting work and finish what it has begun.
///
/// `plugboard run` requests the stop when SIGINT or SIGTERM arrives (a
/// service manager stopping the service, an operator's Ctrl-C) and from then
/// on gives the application ``limit`` to return from
/// ``DrainingApplication/run(arguments:stop:)``: the deployment's
/// `hookTimeout` (30 s unless the manifest or `--hook-timeout` says
/// otherwise), the limit each stop hook gets too. When the limit passes,
/// the application's task is cancelled and the host stops the services
/// anyway, so work still open at ``deadline`` is lost: finish or abandon it
/// before.
///
/// Read it from the application's own threads and tasks as they like: it is
/// `Sendable`, and every property is safe to read at any time.
///
/// ```swift
/// struct Server: DrainingApplication {
///   func run(arguments: [String], stop: StopRequest) async throws -> Int32 {
///     let listener = try Listener(port: 8080)
///     // Wakes the accept loop; the open connections are answered, then closed.
///     stop.onRequest { listener.stopAccepting() }
///     await listener.serve(until: stop)
///     return 0
///   }
/// }
/// ```
///
/// In a test of an application, make one and call ``request()`` where the
/// host would.
public final class StopRequest: Sendable {
  /// How long the application has, from the request, to return.
  public let limit: Duration

  private struct State {
    var requestedAt: ContinuousClock.Instant?
    var handlers: [@Sendable () -> Void] = []
    /// Tasks suspended in ``requested()``, by their number.
    var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    /// Waiters whose task was cancelled before they suspended.
    var cancelled: Set<UInt64> = []
    var nextWaiter: UInt64 = 0
  }

  private let state = Mutex(State())

  /// A request not yet made, giving the application `limit` once it is.
  public init(limit: Duration) {
    self.limit = limit
  }

  /// When the stop was requested, or nil while it has not been.
  public var requestedAt: ContinuousClock.Instant? {
    state.withLock { $0.requestedAt }
  }

  /// Whether the stop was requested.
  public var isRequested: Bool { requestedAt != nil }

  /// When the application's time is up (``requestedAt`` + ``limit``), or
  /// nil while no stop was requested.
  public var deadline: ContinuousClock.Instant? {
    requestedAt.map { $0 + limit }
  }

  /// Requests the stop, now: records the time, calls the handlers given to
  /// ``onRequest(_:)`` on the calling thread and resumes the tasks waiting
  /// in ``requested()``. What the host does on SIGINT or SIGTERM. Returns
  /// false, doing nothing, when the stop was already requested.
  @discardableResult
  public func request() -> Bool {
    let woken = state.withLock {
      state -> (handlers: [@Sendable () -> Void], waiters: [CheckedContinuation<Void, Never>])? in
      guard state.requestedAt == nil else { return nil }
      state.requestedAt = ContinuousClock.now
      defer {
        state.handlers = []
        state.waiters = [:]
      }
      return (state.handlers, Array(state.waiters.values))
    }
    guard let woken else { return false }
    for handler in woken.handlers { handler() }
    for waiter in woken.waiters { waiter.resume() }
    return true
  }

  /// Calls `handler` once, when the stop is requested: on the thread that
  /// requests it (the host's signal-watching thread), so it should only
  /// wake what does the work (write to a pipe, resume a task, close a
  /// listening socket), not do it. Called at once, on this thread, when the
  /// stop was already requested.
  public func onRequest(_ handler: @escaping @Sendable () -> Void) {
    let now = state.withLock { state in
      if state.requestedAt == nil { state.handlers.append(handler) }
      return state.requestedAt != nil
    }
    if now { handler() }
  }

  /// Returns once the stop is requested (at once if it was), or when the
  /// calling task is cancelled, whichever comes first: check
  /// ``isRequested`` to tell the two apart.
  public func requested() async {
    let number = state.withLock { state in
      state.nextWaiter += 1
      return state.nextWaiter
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let now = state.withLock { state in
          if state.requestedAt != nil || state.cancelled.remove(number) != nil { return true }
          state.waiters[number] = continuation
          return false
        }
        if now { continuation.resume() }
      }
    } onCancel: {
      let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
        if let waiter = state.waiters.removeValue(forKey: number) { return waiter }
        // Not suspended yet (or already resumed by the request): the
        // body then returns at once, or has returned.
        if state.requestedAt == nil { state.cancelled.insert(number) }
        return nil
      }
      waiter?.resume()
    }
  }
}
