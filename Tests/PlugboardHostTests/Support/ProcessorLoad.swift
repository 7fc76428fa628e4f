import Foundation
import PlugboardTestSupport
import Synchronization

/// Threads that keep processors busy until stopped: the load of other
/// builds and tests on a shared machine, made on purpose. Threads of this
/// process rather than processes, so that a test that fails or crashes
/// leaves nothing spinning behind it.
final class ProcessorLoad: Sendable {
  private let running = Atomic<Bool>(true)
  private let stopped: [DispatchSemaphore]

  /// Starts `count` threads that spin at the default priority.
  init(threads count: Int) {
    Blocking.requireBlockingThread("Loading the processors")
    stopped = (0..<count).map { _ in DispatchSemaphore(value: 0) }
    for done in stopped {
      let thread = Thread { [self] in
        var spins: UInt64 = 0
        while running.load(ordering: .relaxed) { spins &+= 1 }
        withExtendedLifetime(spins) {}
        done.signal()
      }
      thread.start()
    }
  }

  /// Stops the threads and waits until each has ended its loop.
  func stop() {
    running.store(false, ordering: .relaxed)
    for done in stopped { done.wait() }
  }
}
