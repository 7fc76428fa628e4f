import PlugboardKit
import Synchronization

/// `plugboard run` once the `Application` is resolved: start the services
/// with hooks, run the application, stop the services in reverse; and, on
/// SIGINT or SIGTERM, shut down in order instead of dying.
///
/// Exit status: the application's own when it ends by itself (1 when it
/// throws); ``ExitStatus/runStartFailed`` (69) when a start hook failed or
/// timed out (the services already started were stopped); 128 + N when
/// signal N asked it to stop (as a shell reports a process the signal
/// ended, so a service manager sees what it expects), after the stop hooks
/// ran. A stop hook that fails or times out is reported as a warning and
/// does not change the status.
///
/// A ``DrainingApplication`` is not cancelled at the request: it is given
/// the ``StopRequest`` (made when the signal came, with the hooks' limit),
/// and its task is cancelled when that limit has passed.
///
/// Signals are caught only when some service has hooks or the application
/// drains: otherwise there is nothing to stop in order, and SIGINT and
/// SIGTERM keep their default action (or the one the application
/// installs).
struct ApplicationSession {
  let lifecycle: ServiceLifecycle
  let application: any Application
  let arguments: [String]
  let console: any Console
  /// Told when the application is ready and when it stops (supervised
  /// under systemd, the parent says so), and when a failed start ends it.
  let progress: ChildSession

  private enum Ending: Sendable {
    case startFailed(ServiceLifecycle.StartError)
    case ended(Int32)
    case threw(any Error & Sendable)
    /// Asked to stop, the application did not end within the time limit.
    case abandoned
  }

  /// - Throws: ``RunFailure/startFailed(_:signal:)`` when a start hook
  ///   failed (the services already started are stopped), and
  ///   ``RunFailure/applicationFailed(_:)`` when the application threw by
  ///   itself (after the services stopped). `running`: the phase, which
  ///   the end of the run (or a failed start) ends by beginning the report.
  func run(_ running: consuming ChildSession.ApplicationRunning?) async throws(RunFailure) -> Int32 {
    let gate = OnceGate<Ending>()
    let handover = Handover(application: application)
    let state = SessionState(stop: StopRequest(limit: lifecycle.limit), draining: handover.draining != nil)
    // Without hooks there is nothing to stop in order, and an application
    // that does not drain stops by ending: SIGINT and SIGTERM keep their
    // default action (or the application's own). Otherwise the handler is
    // in place before any hook runs.
    if !lifecycle.services.isEmpty || state.draining {
      Self.stopOnSignals(lifecycle.limit, state: state, gate: gate)
    }
    let ending = await Self.startThenRun(
      lifecycle, handover, arguments: arguments, progress: progress, state: state, gate: gate)
    return try await finish(ending, signal: state.request, running: running)
  }

  /// Catches SIGINT and SIGTERM: the request cancels the session (or, for
  /// a draining application already running, is handed to it), and an
  /// application already running that has not ended `limit` later is
  /// cancelled and left behind.
  private static func stopOnSignals(_ limit: Duration, state: SessionState, gate: OnceGate<Ending>) {
    ShutdownSignals.watch { signal in
      state.requestStop(signal)
      // Start hooks are bounded by their own limit; an application that
      // ignores cancellation gets the same time, then is left behind.
      guard state.applicationRunning.load(ordering: .sequentiallyConsistent) else { return }
      Task {
        try? await Task.sleep(for: limit)
        // A draining application's last notice; the others' task was
        // cancelled at the request.
        state.cancelSession()
        gate.settle(.abandoned)
      }
    }
  }

  /// Starts the services, then runs the application in the session's
  /// task; how that ended, or the time limit after a request to stop.
  private static func startThenRun(
    _ lifecycle: ServiceLifecycle, _ handover: Handover, arguments: [String], progress: ChildSession,
    state: SessionState, gate: OnceGate<Ending>
  ) async -> Ending {
    await withCheckedContinuation { (continuation: CheckedContinuation<Ending, Never>) in
      gate.wait(continuation)
      let session = Task {
        do throws(ServiceLifecycle.StartError) {
          try await lifecycle.start()
        } catch {
          gate.settle(.startFailed(error))
          return
        }
        // Supervised under systemd, the parent now says READY=1.
        progress.report(.ready(stopLimit: lifecycle.stopLimit))
        // Set before looking for a request, so that a signal coming now
        // either finds the task cancelled here or arms the time limit.
        state.applicationRunning.store(true, ordering: .sequentiallyConsistent)
        guard !Task.isCancelled else {
          gate.settle(.ended(0))
          return
        }
        do {
          if let draining = handover.draining {
            gate.settle(.ended(try await draining.run(arguments: arguments, stop: state.stopRequest)))
          } else {
            gate.settle(.ended(try await handover.application.run(arguments: arguments)))
          }
        } catch {
          gate.settle(.threw(ApplicationError(error)))
        }
      }
      state.attach(session)
    }
  }

  /// Stops the services, unless a start hook failed, and gives the
  /// status `ending` and the request to stop (`signal`) call for.
  private func finish(_ ending: Ending, signal: Int32?, running: consuming ChildSession.ApplicationRunning?)
    async throws(RunFailure) -> Int32
  {
    switch ending {
    case .startFailed(let error):
      if let running { _ = running.beginReport() }
      if case .interrupted = error.failure.reason, let signal { throw .startFailed(error, signal: signal) }
      throw .startFailed(error, signal: nil)
    case .abandoned:
      console.err(
        "plugboard: run: the application did not end within \(ProgressEvent.seconds(lifecycle.limit)) s "
          + "of the request to stop; stopping the services anyway")
    case .ended, .threw: break
    }
    // Supervised under systemd, the parent now says STOPPING=1.
    progress.report(.stopping)
    for failure in await lifecycle.stop() { console.err("plugboard: run: warning: \(failure)") }
    // The application and its services ended: what follows is the report.
    if let running { _ = running.beginReport() }
    if let signal { return 128 + signal }
    switch ending {
    case .ended(let status): return status
    // The application's own failure: it ran, so its status is 1 as for
    // any program that gives up, not one of plugboard's.
    case .threw(let error): throw .applicationFailed(error)
    default: return ExitStatus.problems.rawValue
    }
  }

  /// What the session's task and the signal handler share.
  private final class SessionState: Sendable {
    /// The signal that asked to stop, once one did, and the session's task
    /// once it exists: a signal may come before it does.
    private let stop = Mutex<(request: Int32?, session: Task<Void, Never>?)>((nil, nil))
    /// Whether the start hooks are done and the application was started.
    let applicationRunning = Atomic<Bool>(false)
    /// What a draining application is given; requested with the first signal.
    let stopRequest: StopRequest
    /// Whether the application drains: once it runs, a request no longer
    /// cancels it.
    let draining: Bool

    init(stop: StopRequest, draining: Bool) {
      stopRequest = stop
      self.draining = draining
    }

    var request: Int32? { stop.withLock { $0.request } }

    /// Whether a request now is the application's to act on, rather than a
    /// cancellation: during the start hooks it still interrupts them.
    private var drainsNow: Bool { draining && applicationRunning.load(ordering: .sequentiallyConsistent) }

    /// Records the request, requests the application's stop and cancels
    /// the session, if it exists yet and is not a draining application's.
    func requestStop(_ signal: Int32) {
      let session = stop.withLock { stop in
        if stop.request == nil { stop.request = signal }
        return stop.session
      }
      stopRequest.request()
      if !drainsNow { session?.cancel() }
    }

    /// Cancels the session, whatever runs in it.
    func cancelSession() {
      stop.withLock { $0.session }?.cancel()
    }

    /// Records the session, and cancels it if a stop was already requested
    /// (and it is not a draining application's, already running).
    func attach(_ session: Task<Void, Never>) {
      let requested = stop.withLock { stop in
        stop.session = session
        return stop.request != nil
      }
      if requested && !drainsNow { session.cancel() }
    }
  }

  /// `Application` need not be `Sendable`; it moves into the session's
  /// task and is used there alone.
  private struct Handover: @unchecked Sendable {
    let application: any Application
    /// The same application, when it drains.
    var draining: (any DrainingApplication)? { application as? any DrainingApplication }
  }
}

/// What an application threw, carried out of the session's task: the
/// error itself need not be `Sendable`, its text is what is reported.
struct ApplicationError: Error, Sendable, CustomStringConvertible {
  let description: String
  init(_ error: any Error) { description = "\(error)" }
}
