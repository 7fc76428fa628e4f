#if canImport(Glibc)
  import Glibc
#endif

/// The helper threads that deep chains continue on (see ``DeepChain``): each
/// with a large stack, at most `limit` running at a time in the process, so
/// that many deep resolutions at once cannot exhaust the system's threads.
///
/// A hop that finds all helpers busy fails at once rather than waiting: the
/// chains holding them may be waiting for helpers themselves, and a wait
/// could then never end. So does a hop whose thread the system refuses
/// (`ulimit -u` or `-v`, a cgroup's `pids.max`). Either becomes a
/// ``ResolutionError`` of kind `stackExhausted`.
final class HopThreads: @unchecked Sendable {
  /// Why the system refused a thread.
  struct Refused: Error {
    let errno: Int32
  }

  /// Starts `body` on a new joinable thread with `stackSize` bytes of stack.
  /// Replaceable so that tests can simulate a system that refuses threads.
  typealias Spawn =
    @Sendable (_ stackSize: Int, _ body: @escaping @Sendable () -> Void) -> Result<
      pthread_t, Refused
    >

  /// 256 helpers of 16 MiB: 4 GiB of address space at most, which is
  /// reserved, not used, until a chain reaches that deep. A 100,000-deep
  /// chain (``Container/maximumDepth``) takes 7 helpers in a release build.
  static let shared = HopThreads(limit: 256, stackSize: 16 << 20, spawn: startThread)

  let limit: Int
  let stackSize: Int
  private let spawn: Spawn
  private let counts = Protected(Counts())

  struct Counts {
    var running = 0
    /// The most helpers that ever ran at once.
    var peak = 0
    /// Every hop admitted, for tests and diagnostics.
    var admitted = 0
  }

  init(limit: Int, stackSize: Int, spawn: @escaping Spawn) {
    self.limit = limit
    self.stackSize = stackSize
    self.spawn = spawn
  }

  var statistics: Counts { counts.withLock { $0 } }

  /// Runs `body` on a helper thread and waits for it to end; returns why it
  /// could not, or nil once `body` has run.
  func run(_ body: @escaping @Sendable () -> Void) -> ResolutionError.HopFailure? {
    let admitted = counts.withLock { counts -> Bool in
      guard counts.running < limit else { return false }
      counts.running += 1
      counts.peak = max(counts.peak, counts.running)
      counts.admitted += 1
      return true
    }
    guard admitted else { return .helpersBusy(limit: limit) }
    defer { counts.withLock { $0.running -= 1 } }
    switch spawn(stackSize, body) {
    case .success(let thread):
      // Joined, not signalled: when the hop returns its thread is gone, so
      // `running` counts live threads exactly.
      pthread_join(thread, nil)
      return nil
    case .failure(let refused):
      return .threadRefused(errno: refused.errno)
    }
  }

  /// Starts a real thread with `pthread_create`.
  static func startThread(stackSize: Int, body: @escaping @Sendable () -> Void) -> Result<
    pthread_t, Refused
  > {
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, stackSize)
    let job = Unmanaged.passRetained(Job(body)).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(
      &thread, &attributes,
      { job in
        if let job { Unmanaged<Job>.fromOpaque(job).takeRetainedValue().body() }
        return nil
      }, job)
    guard status == 0 else {
      Unmanaged<Job>.fromOpaque(job).release()
      return .failure(Refused(errno: status))
    }
    return .success(thread)
  }

  private final class Job: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }
}
