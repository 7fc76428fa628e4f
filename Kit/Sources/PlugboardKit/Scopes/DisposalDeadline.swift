import Synchronization

/// Runs one async dispose hook with a time limit, without trusting it to
/// return: the host's rule for lifecycle hooks (Docs/lifecycle.md, "Time
/// limits"). The hook runs in a task of its own, so neither the caller's
/// cancellation nor a hook that ignores its own can hold the scope's end
/// up past the limit; a hook still running then is cancelled and left
/// behind.
enum DisposalDeadline {
  enum Outcome: Sendable {
    case finished
    case failed(any Error)
    case timedOut
  }

  static func run(limit: Duration, _ hook: @escaping @Sendable () async throws -> Void) async -> Outcome {
    await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
      let race = Race(continuation)
      let work = Task {
        do {
          try await hook()
          race.settle(.finished)
        } catch {
          race.settle(.failed(error))
        }
      }
      race.arm(
        Task {
          // Cancelled: the hook ended first.
          guard (try? await Task.sleep(for: limit)) != nil else { return }
          race.settle(.timedOut)
          work.cancel()
        })
    }
  }

  /// The first outcome settled resumes the caller, once, and cancels the
  /// timer, so a hook that returns at once leaves no task sleeping behind.
  private final class Race: Sendable {
    private let state: Mutex<(waiter: CheckedContinuation<Outcome, Never>?, timer: Task<Void, Never>?)>

    init(_ waiter: CheckedContinuation<Outcome, Never>) {
      state = Mutex((waiter, nil))
    }

    func arm(_ timer: Task<Void, Never>) {
      let settled = state.withLock { state -> Bool in
        guard state.waiter != nil else { return true }
        state.timer = timer
        return false
      }
      if settled { timer.cancel() }
    }

    func settle(_ outcome: Outcome) {
      let (waiter, timer) = state.withLock { state in
        defer { state = (nil, nil) }
        return state
      }
      timer?.cancel()
      waiter?.resume(returning: outcome)
    }
  }
}
