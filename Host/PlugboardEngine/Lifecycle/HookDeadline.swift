import Synchronization

/// Runs one hook with a time limit, without trusting it to return.
///
/// The hook runs in a task of its own; whichever comes first, its end, the
/// limit, or the cancellation of the caller's task, decides the outcome.
/// A hook still running then is cancelled and left behind: waiting for a
/// hook that ignores cancellation would make the limit meaningless (the
/// process ends soon after, taking it along).
enum HookDeadline {
  enum Outcome: Sendable {
    case finished
    case failed(any Error)
    case timedOut
    case interrupted
  }

  static func run(limit: Duration, _ hook: @escaping @Sendable () async throws -> Void) async -> Outcome {
    let gate = OnceGate<Outcome>()
    return await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
        let work = Task {
          do {
            try await hook()
            gate.settle(.finished)
          } catch {
            gate.settle(.failed(error))
          }
        }
        let timer = Task {
          // Cancelled (the hook ended first): no timeout to report.
          guard (try? await Task.sleep(for: limit)) != nil else { return }
          gate.settle(.timedOut)
        }
        gate.wait(continuation) {
          work.cancel()
          timer.cancel()
        }
      }
    } onCancel: {
      gate.settle(.interrupted)
    }
  }
}
