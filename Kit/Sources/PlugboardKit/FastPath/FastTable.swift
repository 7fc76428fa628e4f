import Synchronization

/// The registrations of one container that serve unnamed, argument-free
/// requests, by type: the first place ``Container/find(_:)`` looks for the
/// resolve inlined into clients.
///
/// An open-addressing table from a metatype's address to the
/// registration's ``FastSlot``, in one allocation: the size, then the
/// entries. What decides which registration serves a type (profiles,
/// selections, fallbacks, replacements, parents) is ``Registry``'s; this
/// table only mirrors the published registry's answers, so a miss sends
/// the request on to ``Container/slotSlowly(_:name:)``, which knows the
/// rest.
///
/// The table never frees what a reader may hold: a slot's key is written
/// once, a key's slot pointer is replaced or cleared atomically, and a
/// table that runs out of room is replaced by a larger one while the
/// replaced one stays allocated until the container goes. So a lookup
/// needs no reader registration (``ReaderGate``): a reader that loaded
/// the previous table finds the answer from before the change, as it
/// would had it read a moment earlier.
struct FastTable {
  struct Header {
    /// The number of entries minus one; the number is a power of two.
    let mask: Int
    /// 64 minus the number of entries in bits: an index is the top bits
    /// of the key's product by a constant (``Registry/index(of:shift:)``).
    let shift: Int
  }

  /// One entry: a metatype's address (0 while empty; written once) and
  /// the registration serving it (`nil` while none is known).
  struct Entry: ~Copyable {
    let key: Atomic<UInt>
    let slot: Atomic<UnsafeMutablePointer<FastSlot>?>
  }

  let header: UnsafeMutablePointer<Header>

  var mask: Int {
    @inline(__always) get { header.pointee.mask }
  }

  var entries: UnsafeMutablePointer<Entry> {
    @inline(__always) get { UnsafeMutableRawPointer(header + 1).assumingMemoryBound(to: Entry.self) }
  }

  /// The slot serving `id`, or `nil`: none is known here.
  @inline(__always)
  func slot(for id: ObjectIdentifier) -> UnsafeMutablePointer<FastSlot>? {
    slot(forKey: Registry.bits(of: id))
  }

  /// The slot stored under `bits`, a key of the caller's making (not 0).
  @inline(__always)
  func slot(forKey bits: UInt) -> UnsafeMutablePointer<FastSlot>? {
    let mask = header.pointee.mask
    let entries = self.entries
    var index = Registry.index(of: bits, shift: header.pointee.shift)
    while true {
      // Acquiring: an entry's slot is stored before its key.
      let key = entries[index].key.load(ordering: .acquiring)
      if key == bits { return entries[index].slot.load(ordering: .acquiring) }
      if key == 0 { return nil }
      index = (index &+ 1) & mask
    }
  }

  /// A table of `capacity` empty entries (a power of two, at least 2).
  static func make(capacity: Int) -> FastTable {
    let bytes = MemoryLayout<Header>.stride + capacity * MemoryLayout<Entry>.stride
    let memory = UnsafeMutableRawPointer(CacheLine.allocate(UInt8.self, count: bytes))
    let header = memory.bindMemory(to: Header.self, capacity: 1)
    header.initialize(to: Header(mask: capacity - 1, shift: 64 - capacity.trailingZeroBitCount))
    let table = FastTable(header: header)
    let entries = (memory + MemoryLayout<Header>.stride).bindMemory(to: Entry.self, capacity: capacity)
    for index in 0..<capacity {
      (entries + index).initialize(to: Entry(key: Atomic(0), slot: Atomic(nil)))
    }
    return table
  }

  func free() {
    entries.deinitialize(count: mask + 1)
    header.deinitialize(count: 1)
    UnsafeMutableRawPointer(header).deallocate()
  }

  /// Stores `slot` in the entry of `bits`: `false` when there is none.
  func replace(_ slot: UnsafeMutablePointer<FastSlot>?, for bits: UInt) -> Bool {
    var index = Registry.index(of: bits, shift: header.pointee.shift)
    while true {
      let key = entries[index].key.load(ordering: .relaxed)
      if key == bits {
        entries[index].slot.store(slot, ordering: .releasing)
        return true
      }
      if key == 0 { return false }
      index = (index &+ 1) & mask
    }
  }

  /// A new entry for `bits`, which has none; the table has room. Its slot
  /// is stored before its key, so a reader that finds the key finds the
  /// slot.
  func add(_ slot: UnsafeMutablePointer<FastSlot>, for bits: UInt) {
    var index = Registry.index(of: bits, shift: header.pointee.shift)
    while entries[index].key.load(ordering: .relaxed) != 0 { index = (index &+ 1) & mask }
    entries[index].slot.store(slot, ordering: .releasing)
    entries[index].key.store(bits, ordering: .releasing)
  }

  /// Adds every entry that has a slot to `other`, which is empty and has
  /// room; returns how many.
  func copyLive(into other: FastTable) -> Int {
    var count = 0
    for index in 0...mask {
      let key = entries[index].key.load(ordering: .relaxed)
      guard key != 0, let slot = entries[index].slot.load(ordering: .relaxed) else { continue }
      other.add(slot, for: key)
      count += 1
    }
    return count
  }
}

/// A container's ``FastTable``, and what it keeps to write it: how many
/// keys the current table holds, and the tables it replaced, freed with
/// the container. Read without a lock; written under the container's lock
/// only.
final class FastTableKeeper: @unchecked Sendable {
  /// The current table's header. Never dangling: a container with nothing
  /// to serve points at a shared table of two empty entries.
  private let current: Atomic<UnsafeMutablePointer<FastTable.Header>>
  private var keys = 0
  private var retired: [FastTable] = []

  /// The table every container starts with, never written (a write first
  /// makes a table of its own).
  private nonisolated(unsafe) static let empty = FastTable.make(capacity: 2)

  init() {
    current = Atomic(Self.empty.header)
  }

  deinit {
    // The container is going, so no reader is left.
    for table in retired + [table] where table.header != Self.empty.header { table.free() }
  }

  /// The table a lookup reads.
  var table: FastTable {
    @inline(__always) get { FastTable(header: current.load(ordering: .acquiring)) }
  }

  /// Makes `slot` (or, with `nil`, nothing) serve `id`. A table out of room
  /// is replaced by one twice its size, with the keys that still have a
  /// slot.
  func set(_ slot: UnsafeMutablePointer<FastSlot>?, for id: ObjectIdentifier) {
    set(slot, forKey: Registry.bits(of: id))
  }

  /// ``set(_:for:)`` under a key of the caller's making: any word but 0.
  func set(_ slot: UnsafeMutablePointer<FastSlot>?, forKey bits: UInt) {
    let table = FastTable(header: current.load(ordering: .relaxed))
    if table.replace(slot, for: bits) { return }
    // Clearing a key the table lacks changes nothing.
    guard let slot else { return }
    let isEmpty = table.header == Self.empty.header
    if !isEmpty, (keys + 1) * 2 <= table.mask + 1 {
      table.add(slot, for: bits)
      keys += 1
      return
    }
    let larger = FastTable.make(capacity: max(8, (table.mask + 1) * 2))
    keys = table.copyLive(into: larger) + 1
    larger.add(slot, for: bits)
    current.store(larger.header, ordering: .releasing)
    if !isEmpty { retired.append(table) }
  }

  /// Forgets every registration: after a change that may move any of
  /// them (a removal, a profile, a selection, a fallback).
  func clear() {
    let table = self.table
    guard table.header != Self.empty.header else { return }
    for index in 0...table.mask {
      table.entries[index].slot.store(nil, ordering: .releasing)
    }
  }
}
