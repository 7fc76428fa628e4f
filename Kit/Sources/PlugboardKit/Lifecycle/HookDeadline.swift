import Synchronization

/// Runs one hook with a time limit, without trusting it to return: the
/// rule for lifecycle hooks (Docs/lifecycle.md, "Time limits"), which a
/// scope's async dispose hooks follow too, and which the host's start and
/// stop hooks run under.
///
/// The hook runs in a task of its own; whichever comes first, its end or
/// the limit (or, when `interruptible`, the cancellation of the caller's
/// task), decides the outcome. A hook still running then is cancelled and
/// left behind: waiting for a hook that ignores cancellation would make
/// the limit meaningless.
///
/// ```swift
/// switch await HookDeadline.run(limit: .seconds(5), { try await pool.drain() }) {
/// case .finished: break
/// case .failed(let error): logger.error("drain failed: \(error)")
/// case .timedOut, .interrupted: logger.warning("drain left running")
/// }
/// ```
public enum HookDeadline {
  /// How a hook's run ended.
  public enum Outcome: Sendable {
    /// The hook returned within the limit.
    case finished
    /// The hook threw within the limit.
    case failed(any Error)
    /// The limit came first; the hook was cancelled and left behind.
    case timedOut
    /// The caller's task was cancelled first (only when `interruptible`).
    case interrupted
  }

  /// Runs `hook` until it ends or `limit` passes, whichever is first.
  /// - Parameters:
  ///   - limit: how long the hook may run.
  ///   - interruptible: whether cancelling the calling task ends the wait
  ///     (`.interrupted`): the host's stop on a signal. A scope's end is
  ///     not: it runs every hook even when its task is cancelled.
  public static func run(
    limit: Duration, interruptible: Bool = false, _ hook: @escaping @Sendable () async throws -> Void
  ) async -> Outcome {
    // The first outcome settled resumes the waiter once, even when it comes
    // before the waiter does, and cancels the tasks that lost the race, so
    // a hook that returns at once leaves no timer sleeping behind.
    let race = OnceGate<Outcome>()
    let wait = {
      await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
        let work = Task {
          do {
            try await hook()
            race.settle(.finished)
          } catch {
            race.settle(.failed(error))
          }
        }
        let timer = Task {
          // Cancelled: the hook ended first.
          guard (try? await Task.sleep(for: limit)) != nil else { return }
          race.settle(.timedOut)
        }
        race.wait(continuation) {
          work.cancel()
          timer.cancel()
        }
      }
    }
    guard interruptible else { return await wait() }
    return await withTaskCancellationHandler(operation: wait) { race.settle(.interrupted) }
  }
}
