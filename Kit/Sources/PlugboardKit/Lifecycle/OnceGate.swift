import Synchronization

/// The first value settled wins: it resumes the waiting continuation once,
/// even when it arrives before the continuation does, and runs the
/// waiter's clean-up (cancelling the tasks that lost the race). What
/// ``HookDeadline`` races a hook against its limit with, and the host's
/// application session its ending against a signal.
///
/// ```swift
/// let gate = OnceGate<String>()
/// let first = await withCheckedContinuation { continuation in
///   gate.wait(continuation)
///   Task { gate.settle("work") }
///   Task { gate.settle("signal") }
/// }
/// ```
public final class OnceGate<Value: Sendable>: Sendable {
  private enum State {
    case open
    case waiting(CheckedContinuation<Value, Never>, cleanup: @Sendable () -> Void)
    case settled(Value)
    case done
  }

  private let state = Mutex(State.open)

  /// A gate nothing has settled or waited on yet.
  public init() {}

  /// Resumes `continuation` with the first settled value (at once, when
  /// one came already), after running `cleanup`. Call it once per gate.
  public func wait(
    _ continuation: CheckedContinuation<Value, Never>, cleanup: @escaping @Sendable () -> Void = {}
  ) {
    let early: Value? = state.withLock { state in
      guard case .settled(let value) = state else {
        state = .waiting(continuation, cleanup: cleanup)
        return nil
      }
      state = .done
      return value
    }
    if let early {
      cleanup()
      continuation.resume(returning: early)
    }
  }

  /// Offers `value`: the first offer is the one the waiter gets; later
  /// ones are dropped.
  public func settle(_ value: Value) {
    let waiter: (CheckedContinuation<Value, Never>, @Sendable () -> Void)? = state.withLock { state in
      switch state {
      case .open:
        state = .settled(value)
        return nil
      case .waiting(let continuation, let cleanup):
        state = .done
        return (continuation, cleanup)
      case .settled, .done:
        return nil
      }
    }
    guard let (continuation, cleanup) = waiter else { return }
    cleanup()
    continuation.resume(returning: value)
  }
}
