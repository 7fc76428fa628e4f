#if canImport(Glibc)
  import Glibc
#endif

/// The helper threads that deep chains continue on (see ``DeepChain``): each
/// with a large stack and a bounded number at a time in the process, so
/// that many deep resolutions at once cannot exhaust the system's threads.
///
/// A chain that needs a helper while `limit` are running is refused at once
/// rather than made to wait: the chains holding them may be waiting for it
/// (for an instance it is constructing), and a wait could then never end.
/// The oldest chain holding helpers is the exception: it is never refused
/// for want of one. Without it, chains that each hold one helper and need
/// another refuse each other, and none of them completes (eight at once
/// against six helpers, under the thread sanitizer, all failed). With it
/// one deep resolution always completes, and the others fail fast or
/// finish. Only the oldest chain runs beyond the limit, so the process
/// runs at most `limit` helpers plus the ones a single chain needs, which
/// ``Container/maximumDepth`` bounds.
///
/// A hop whose thread the system refuses (`ulimit -u` or `-v`, a cgroup's
/// `pids.max`) fails too. Either failure becomes a ``ResolutionError`` of
/// kind `stackExhausted`.
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

  /// 256 helpers of 16 MiB, plus the ones the oldest chain takes beyond
  /// them: about 4 GiB of address space at most, which is reserved, not
  /// used, until chains reach that deep. A 100,000-deep chain
  /// (``Container/maximumDepth``) takes 7 helpers in a release build.
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
    /// Hops admitted while `limit` helpers were already running, all of
    /// them the oldest chain's.
    var beyondLimit = 0
    /// The chains holding helpers, by ticket (see
    /// `ResolutionContext.hopTicket`): how many each holds. Tickets grow,
    /// so the smallest is the oldest chain.
    fileprivate var holders: [UInt64: Int] = [:]
    fileprivate var nextTicket: UInt64 = 1

    /// Admits one more hop of the chain holding `ticket` (0 if it holds
    /// none yet) and returns its ticket, or nil when it is refused.
    fileprivate mutating func admit(_ ticket: UInt64, limit: Int) -> UInt64? {
      if running >= limit {
        // Only a chain that already holds helpers can be the oldest: one
        // that holds none would take its first with all of them in use.
        guard ticket != 0, ticket == holders.keys.min() else { return nil }
        beyondLimit += 1
      }
      let ticket = ticket != 0 ? ticket : nextTicket
      if ticket == nextTicket { nextTicket += 1 }
      holders[ticket, default: 0] += 1
      running += 1
      peak = max(peak, running)
      admitted += 1
      return ticket
    }

    /// Ends a hop of the chain holding `ticket`; returns the chain's ticket
    /// afterwards, 0 once it holds no helper.
    fileprivate mutating func release(_ ticket: UInt64) -> UInt64 {
      running -= 1
      let held = (holders[ticket] ?? 1) - 1
      holders[ticket] = held > 0 ? held : nil
      return held > 0 ? ticket : 0
    }
  }

  init(limit: Int, stackSize: Int, spawn: @escaping Spawn) {
    self.limit = limit
    self.stackSize = stackSize
    self.spawn = spawn
  }

  var statistics: Counts { counts.withLock { $0 } }

  /// Runs `body`, the next stretch of the chain `chain` resolves, on a
  /// helper thread and waits for it to end; returns why it could not, or
  /// nil once `body` has run.
  func run(
    for chain: ResolutionContext, _ body: @escaping @Sendable () -> Void
  ) -> ResolutionError.HopFailure? {
    let admitted = counts.withLock { counts -> Bool in
      guard let ticket = counts.admit(chain.hopTicket, limit: limit) else { return false }
      chain.hopTicket = ticket
      return true
    }
    guard admitted else { return .helpersBusy(limit: limit) }
    defer { counts.withLock { chain.hopTicket = $0.release(chain.hopTicket) } }
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
