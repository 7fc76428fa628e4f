import PlugboardTestSupport

@testable import PlugboardKit

#if canImport(Glibc)
  import Glibc
#endif

/// Runs `body` on a new thread with exactly `stackSize` bytes of stack, as
/// an embedding program might create one, and waits for it; nil when the
/// thread could not be created. The thread is started the way deep chains
/// start their helpers.
func onThread<Value: Sendable>(stackSize: Int, _ body: @escaping @Sendable () -> Value) -> Value? {
  Blocking.requireBlockingThread("Waiting for a thread")
  let result = Locked<Value?>(nil)
  let started = HopThreads.startThread(stackSize: stackSize) {
    let value = body()
    result.withLock { $0 = value }
  }
  guard case .success(let thread) = started else { return nil }
  pthread_join(thread, nil)
  return result.withLock { $0 }
}
