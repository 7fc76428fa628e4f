#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value behind a `pthread_mutex_t`.
///
/// Not `Synchronization.Mutex`: that lock's code ships in a library built
/// without sanitizer instrumentation, so ThreadSanitizer cannot see its
/// happens-before edges and reports every access under it as a race.
/// `pthread_mutex` goes through TSan's interceptors, so the concurrency
/// tests can run under `--sanitize=thread` and mean something.
final class Protected<Value>: @unchecked Sendable {
  // `value` is only touched with `mutex` held, which is what the runtime's
  // exclusivity check would otherwise verify on every access.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  @exclusivity(unchecked) private var value: Value

  init(_ value: Value) {
    self.value = value
    mutex = .allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}

/// A fixed set of mutexes shared by many small objects (registrations),
/// each object locking the one its address picks: a lock per object
/// without an allocation per object.
enum StripedLock {
  private static let count = 64
  // Written once, when first used (lazily, thread-safely); only locked after.
  nonisolated(unsafe) private static let mutexes: UnsafeMutablePointer<pthread_mutex_t> = {
    let mutexes = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: count)
    for index in 0..<count { pthread_mutex_init(mutexes + index, nil) }
    return mutexes
  }()

  /// Runs `body` holding the lock of `object`.
  static func withLock<Result>(for object: AnyObject, _ body: () throws -> Result) rethrows -> Result {
    let address = UInt(bitPattern: ObjectIdentifier(object).hashValue)
    let mutex = mutexes + Int((address >> 4) % UInt(count))
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}
