#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A mutex with a condition variable, for the few places where a thread
/// waits until another finishes (a `.container` instance being made, a
/// scope's constructions draining).
///
/// PlugboardKit is built with library evolution, and Foundation is not:
/// importing it would put a module without a stable layout under Kit's
/// promise (Kit/ABI.md), so Kit waits with the C library's primitives.
final class Condition: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

  init() {
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deallocate()
    mutex.deallocate()
  }

  func lock() { pthread_mutex_lock(mutex) }
  func unlock() { pthread_mutex_unlock(mutex) }

  /// Releases the lock until another thread broadcasts, then takes it
  /// again; call with the lock held, in a loop that checks what it waits
  /// for (a wake-up may be spurious).
  func wait() { pthread_cond_wait(condition, mutex) }

  /// Wakes every waiting thread; call with the lock held.
  func broadcast() { pthread_cond_broadcast(condition) }

  func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    lock()
    defer { unlock() }
    return try body()
  }
}
