import Synchronization

/// The first value settled wins: it resumes the waiting continuation once,
/// even when it arrives before the continuation does, and runs the
/// waiter's clean-up (cancelling the tasks that lost the race). What
/// ``HookDeadline`` races a hook against its limit with, and the host's
/// application session its ending against a signal.
@_spi(Host) public final class OnceGate<Value: Sendable>: Sendable {
  private enum State {
    case open
    case waiting(CheckedContinuation<Value, Never>, cleanup: @Sendable () -> Void)
    case settled(Value)
    case done
  }

  private let state = Mutex(State.open)

  public init() {}

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
