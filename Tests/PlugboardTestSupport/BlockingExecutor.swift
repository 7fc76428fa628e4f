import Foundation

/// The threads that tests which block run on: a fixed number of threads of
/// their own, outside Swift's cooperative pool.
///
/// Swift Testing runs every test as a task, and a synchronous test function
/// runs on the thread of the task that calls it: a thread of the cooperative
/// pool, which has as many threads as the machine has processors (two on
/// CI). A test that waits there for a child process, a semaphore or a
/// thread takes a processor's worth of the pool from every other test: on a
/// busy machine an async test's `await` then waited tens of seconds for a
/// thread, and failed its time limit. Tests that block run here instead
/// (see ``Blocking``), as many at a time as there are threads, and the
/// cooperative pool stays free for the tests that suspend.
///
/// Jobs run in the order they came, each to its end or its next suspension.
public final class BlockingExecutor: TaskExecutor, @unchecked Sendable {
  /// The executor of ``Blocking``: one thread per processor, at least two.
  public static let shared = BlockingExecutor(threads: max(2, ProcessInfo.processInfo.activeProcessorCount))

  // One lock for both, an NSCondition: the thread sanitizer does not see
  // the futex under `Synchronization.Mutex` on Linux, and reported the
  // threads' registration below as a race.
  private let condition = NSCondition()
  /// Guarded by `condition`.
  private var jobs: [UnownedJob] = []
  /// This executor's threads. Guarded by `condition`.
  private var threads: Set<pthread_t> = []

  private init(threads count: Int) {
    for index in 0..<count {
      let thread = Thread { [self] in run() }
      thread.name = "blocking tests \(index)"
      thread.start()
    }
  }

  /// Whether the calling thread is one of this executor's.
  public var isCurrent: Bool {
    let current = pthread_self()
    condition.lock()
    defer { condition.unlock() }
    return threads.contains(current)
  }

  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    condition.lock()
    jobs.append(job)
    condition.signal()
    condition.unlock()
  }

  private func run() {
    condition.lock()
    threads.insert(pthread_self())
    condition.unlock()
    while true {
      condition.lock()
      while jobs.isEmpty { condition.wait() }
      let job = jobs.removeFirst()
      condition.unlock()
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }
}
