import PlugboardABI
import Synchronization

/// Tells a writer when no lock-free reader can still hold a retired
/// registry snapshot, so the snapshot can be freed.
///
/// Readers count themselves in and out on one of several counters, each on
/// a cache line of its own, picked by the reader's stack address: threads
/// have separate stacks, so concurrent readers rarely share a counter and
/// do not fight over one line. A writer first replaces the published
/// snapshot, then looks at every counter; if each reads zero at some moment
/// after the replacement, every reader that could have loaded the old
/// snapshot has finished with it. Both sides use sequentially consistent
/// operations, which is what makes "counted in, then loaded" and
/// "replaced, then counted" exclude each other.
@usableFromInline
final class ReaderGate: @unchecked Sendable {
  @usableFromInline static let stripes = 16
  // `stripes` counters, one per cache line, initialized in init and only
  // touched atomically after.
  @usableFromInline let base: UnsafeMutableRawPointer

  init() {
    base = UnsafeMutableRawPointer.allocate(
      byteCount: Self.stripes * CacheLine.size, alignment: CacheLine.size)
    for index in 0..<Self.stripes {
      (base + index * CacheLine.size).bindMemory(to: Atomic<Int>.self, capacity: 1)
        .initialize(to: Atomic(0))
    }
  }

  deinit {
    base.deallocate()
  }

  /// Counts the calling thread in; pass the result to ``leave(_:)``.
  @inlinable @inline(__always)
  func enter() -> UnsafeMutablePointer<Atomic<Int>> {
    // 8 MiB stacks: the address's bits above that pick a counter per
    // thread. Counters are `CacheLine.size` (64, `&<< 6`) bytes apart.
    let stripe = Int(truncatingIfNeeded: plugboard_stack_address() >> 23) & (Self.stripes - 1)
    let counter = (base + stripe &<< 6).assumingMemoryBound(to: Atomic<Int>.self)
    counter.pointee.add(1, ordering: .sequentiallyConsistent)
    return counter
  }

  @inlinable @inline(__always)
  func leave(_ counter: UnsafeMutablePointer<Atomic<Int>>) {
    counter.pointee.subtract(1, ordering: .sequentiallyConsistent)
  }

  /// Whether every reader that started before this call has finished.
  func isQuiet() -> Bool {
    for index in 0..<Self.stripes {
      let counter = (base + index * CacheLine.size).assumingMemoryBound(to: Atomic<Int>.self)
      if counter.pointee.load(ordering: .sequentiallyConsistent) != 0 { return false }
    }
    return true
  }
}
