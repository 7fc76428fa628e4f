import PlugboardABI
import Synchronization

/// Tells a writer when no lock-free reader can still hold a retired
/// registry snapshot, so the snapshot can be freed.
///
/// Each thread marks itself inside a lookup in a slot of its own (a cache
/// line per thread, claimed on the thread's first lookup and reused after
/// it exits): entering and leaving are plain stores, with no
/// read-modify-write on memory another thread writes, which is what the
/// singleton lookup cannot afford (two atomic counter updates would cost
/// it nearly as much as the rest of it). The writer pays instead: after
/// replacing the published snapshot it runs
/// `membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)`, a full memory barrier
/// on every running thread of the process, and then reads every
/// slot. A reader whose mark the writer does not see had not yet loaded
/// the snapshot pointer at the barrier, so it loads the new snapshot.
/// Where the system call is unavailable, readers fence themselves
/// (`plugboard_readers_fence`), the classic store–fence–load handshake.
struct ReaderGate: Sendable {
  /// Marks the calling thread inside a lookup; pass the result to
  /// ``leave(_:)``.
  @inline(__always)
  static func enter() -> UnsafeMutablePointer<Atomic<Int>> {
    let depth = UnsafeMutableRawPointer(plugboard_reader_slot_current())
      .assumingMemoryBound(to: Atomic<Int>.self)
    // Only this thread writes its slot, so a load and a store suffice.
    depth.pointee.store(depth.pointee.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
    if plugboard_readers_need_fence() != 0 {
      atomicMemoryFence(ordering: .sequentiallyConsistent)
    } else {
      // The mark must reach memory before the snapshot pointer is read;
      // the writer's barrier orders the processor, this the compiler.
      plugboard_compiler_barrier()
    }
    return depth
  }

  /// Marks the calling thread out of the lookup `enter` began.
  @inline(__always)
  static func leave(_ depth: UnsafeMutablePointer<Atomic<Int>>) {
    // Releasing: what the lookup read of the snapshot happens before a
    // writer that sees the mark gone frees it.
    depth.pointee.store(depth.pointee.load(ordering: .relaxed) &- 1, ordering: .releasing)
  }

  /// Whether every reader that may have loaded the snapshot pointer before
  /// this call has finished with it; call after replacing that pointer.
  static func isQuiet() -> Bool {
    if plugboard_readers_barrier() == 0 && plugboard_readers_need_fence() == 0 {
      // Readers count on the barrier and it failed: nothing is known.
      return false
    }
    atomicMemoryFence(ordering: .sequentiallyConsistent)
    var slot = plugboard_reader_slots()
    while let current = slot {
      let depth = UnsafeMutableRawPointer(current).assumingMemoryBound(to: Atomic<Int>.self)
      if depth.pointee.load(ordering: .acquiring) != 0 { return false }
      slot = plugboard_reader_slot_next(current)
    }
    return true
  }
}
