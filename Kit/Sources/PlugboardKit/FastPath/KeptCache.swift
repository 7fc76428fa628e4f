import PlugboardABI
import Synchronization

/// One entry of ``KeptCache``: a container's kept `.container` instance of
/// a type, for unnamed requests. Frozen (Kit/ABI.md), as is the protocol
/// that reads it: a reader loads ``sequence`` (acquiring), then the other
/// three fields, then, after an acquiring fence, ``sequence`` again; the
/// entry holds if both loads gave the same even value. A writer makes
/// ``sequence`` odd, writes the fields, and makes it even again.
@frozen @usableFromInline
struct KeptEntry: ~Copyable {
  @usableFromInline let sequence: Atomic<UInt>
  /// The metatype's address; 0 in an empty entry.
  @usableFromInline let type: Atomic<UInt>
  /// The ``Container``'s address.
  @usableFromInline let container: Atomic<UInt>
  /// The instance's storage (``FastSlot/shared``).
  @usableFromInline let instance: Atomic<UnsafeMutableRawPointer?>
}

/// The kept `.container` instances of the process, by type and container:
/// what the resolve inlined into plugins reads first for an unnamed
/// request, with no call. Any other request, and a type the cache does not
/// hold, asks Kit (``Container/find(_:)``).
///
/// The only memory a client can reach without a call into Kit is a C
/// symbol's, and a container's own fields are not at fixed offsets (their
/// layout is Kit's to change), so the cache is one table for the process,
/// in PlugboardABI (`plugboard_kept_words`): 1024 entries, each a type's
/// place by the top bits of its metatype's address times a constant. An
/// entry, once taken, keeps its type and container until Kit empties it,
/// so two types that share a place do not evict each other: the second is
/// served by `find`, as without the cache.
///
/// Kit writes an entry only for a registration of the container itself
/// (never a parent's), whose instance exists, and empties the container's
/// entries when anything could change the answer: a registration, a
/// removal, a profile, a selection, a reset of the instance, the container
/// going away. The instance's storage outlives the entry: a reset keeps it
/// until the container goes (``Container/resetObjectScope(_:)-(ObjectScope)``).
@usableFromInline
enum KeptCache {
  /// The entry of `type` (a metatype's address).
  @inlinable @inline(__always)
  static func entry(for type: UInt) -> UnsafeMutablePointer<KeptEntry> {
    // 1024 entries: the top 10 bits of the product.
    let index = Int(truncatingIfNeeded: (type &* 0x9E37_79B9_7F4A_7C15) &>> 54)
    return plugboard_kept().assumingMemoryBound(to: KeptEntry.self) + index
  }

  /// The kept instance of `id` in `container`, if the cache holds it.
  @inlinable @inline(__always)
  static func instance(of id: ObjectIdentifier, in container: Container) -> UnsafeMutableRawPointer? {
    let type = UInt(bitPattern: unsafeBitCast(id, to: Int.self))
    let entry = entry(for: type)
    let sequence = entry.pointee.sequence.load(ordering: .acquiring)
    guard entry.pointee.type.load(ordering: .relaxed) == type,
      entry.pointee.container.load(ordering: .relaxed)
        == UInt(bitPattern: Unmanaged.passUnretained(container).toOpaque()),
      let instance = entry.pointee.instance.load(ordering: .relaxed)
    else { return nil }
    atomicMemoryFence(ordering: .acquiring)
    // An odd sequence is a write in progress; a changed one, a write done
    // meanwhile.
    guard sequence & 1 == 0, entry.pointee.sequence.load(ordering: .relaxed) == sequence else {
      return nil
    }
    return instance
  }
}

// MARK: Written by Kit

extension KeptCache {
  /// Serializes the writers of every entry.
  private static let writers = Mutex(())

  /// Whether the entry of `id` is empty or already `container`'s for it:
  /// whether ``keep(_:of:in:generation:)`` could write it. Read without
  /// the lock, so that a type whose place another holds costs no more.
  static func isFree(for id: ObjectIdentifier, in container: Container) -> Bool {
    let type = UInt(bitPattern: unsafeBitCast(id, to: Int.self))
    return entry(for: type).pointee.isFree(
      for: type, owner: UInt(bitPattern: Unmanaged.passUnretained(container).toOpaque()))
  }

  /// Puts `instance` in the entry of `id` for `container`, if the entry is
  /// free (or already the container's for `id`) and the container's
  /// answers have not changed since `generation` was read (see
  /// ``Container/keptGeneration``).
  static func keep(
    _ instance: UnsafeMutableRawPointer, of id: ObjectIdentifier, in container: Container, generation: UInt
  ) {
    let type = UInt(bitPattern: unsafeBitCast(id, to: Int.self))
    let owner = UInt(bitPattern: Unmanaged.passUnretained(container).toOpaque())
    let entry = entry(for: type)
    writers.withLock { _ in
      // Before the generation is read: a change that bumps it after this
      // sees the flag and empties the entry (Container.forgetKept).
      container.keptFilled.store(true, ordering: .sequentiallyConsistent)
      guard container.keptGeneration.load(ordering: .sequentiallyConsistent) == generation,
        entry.pointee.isFree(for: type, owner: owner)
      else { return }
      entry.pointee.write(type: type, container: owner, instance: instance)
    }
  }

  /// Empties the entry of `id` for `container`, or, with `nil`, every
  /// entry of `container`.
  static func forget(_ id: ObjectIdentifier?, in container: Container) {
    let owner = UInt(bitPattern: Unmanaged.passUnretained(container).toOpaque())
    writers.withLock { _ in
      guard let id else {
        let first = plugboard_kept().assumingMemoryBound(to: KeptEntry.self)
        for index in 0..<1024 where first[index].container.load(ordering: .relaxed) == owner {
          first[index].write(type: 0, container: 0, instance: nil)
        }
        return
      }
      let type = UInt(bitPattern: unsafeBitCast(id, to: Int.self))
      let entry = entry(for: type)
      if entry.pointee.container.load(ordering: .relaxed) == owner,
        entry.pointee.type.load(ordering: .relaxed) == type
      {
        entry.pointee.write(type: 0, container: 0, instance: nil)
      }
    }
  }
}

extension KeptEntry {
  /// Whether the entry is empty, or already holds `type` for `owner`.
  func isFree(for type: UInt, owner: UInt) -> Bool {
    let container = self.container.load(ordering: .relaxed)
    return container == 0 || (container == owner && self.type.load(ordering: .relaxed) == type)
  }

  /// Writes the entry, under ``KeptCache``'s lock, as the reader's
  /// protocol expects: the sequence made odd before the fields, and even
  /// again after them.
  func write(type: UInt, container: UInt, instance: UnsafeMutableRawPointer?) {
    let sequence = self.sequence.load(ordering: .relaxed)
    self.sequence.store(sequence &+ 1, ordering: .relaxed)
    atomicMemoryFence(ordering: .releasing)
    self.type.store(type, ordering: .relaxed)
    self.container.store(container, ordering: .relaxed)
    self.instance.store(instance, ordering: .relaxed)
    self.sequence.store(sequence &+ 2, ordering: .releasing)
  }
}
