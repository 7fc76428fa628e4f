import Synchronization

/// What the resolve inlined into clients reads of one registration: its
/// kept instance, its scope, its factory and its argument types. Not for
/// use outside PlugboardKit.
///
/// Frozen for the whole major version (Kit/ABI.md): a plugin compiled
/// against an earlier Kit reads these fields at these offsets. Everything
/// else about a registration (its key, site, metadata, handlers, lock) is
/// in ``RegistrationRecord``, whose layout any release may change, and
/// which inlined code only hands back to Kit's own functions, through
/// ``record``.
///
/// Each record owns one slot, on cache lines of its own (see
/// ``CacheLine``): every resolve of a singleton loads ``shared``, and a
/// user object allocated beside it would make threads that retain that
/// object evict the line the others read. The factory and the argument
/// types follow the slot in the same allocation.
@frozen @usableFromInline
struct FastSlot: ~Copyable {
  /// The `.container` instance, once made: its storage, published with
  /// release ordering after the instance is complete.
  @usableFromInline let shared: Atomic<UnsafeMutableRawPointer?>
  /// The scope's raw value: ``RawScope/graph`` is the one the inlined
  /// resolve acts on (by asking for a kept instance first).
  @usableFromInline let scope: Atomic<UInt8>
  /// The ``RegistrationRecord``, unretained (its container keeps it);
  /// written once, by the record's initializer.
  @usableFromInline var record: UnsafeRawPointer
  /// The factory: a ``FactoryCell`` for a registration without runtime
  /// arguments, an ``ArgumentFactoryCell`` for one with.
  @usableFromInline let factory: UnsafeMutableRawPointer
  /// The runtime argument types, in order (``argumentCount`` of them).
  @usableFromInline let argumentTypes: UnsafeMutablePointer<ObjectIdentifier>
  @usableFromInline let argumentCount: Int

  /// A slot with, after it, room for a factory cell and the argument
  /// types; the record then sets ``record`` and initializes the cell.
  /// Free with ``deallocate(_:)``.
  static func allocate(scope: UInt8, arguments: [TypeIdentity]) -> UnsafeMutablePointer<FastSlot> {
    let header = MemoryLayout<FastSlot>.stride
    let count = arguments.count
    // A cell holds one function value: two words.
    let cell = 2 * MemoryLayout<UnsafeRawPointer>.stride
    let bytes = header + cell + count * MemoryLayout<ObjectIdentifier>.stride
    let memory = UnsafeMutableRawPointer(CacheLine.allocate(UInt8.self, count: bytes))
    let types = (memory + header + cell).bindMemory(to: ObjectIdentifier.self, capacity: count)
    for (index, argument) in arguments.enumerated() { (types + index).initialize(to: argument.id) }
    let slot = memory.bindMemory(to: FastSlot.self, capacity: 1)
    slot.initialize(
      to: FastSlot(
        shared: Atomic(nil), scope: Atomic(scope), record: UnsafeRawPointer(memory),
        factory: memory + header, argumentTypes: types, argumentCount: count))
    return slot
  }

  /// Frees a slot made by ``allocate(scope:arguments:)``; the record has
  /// deinitialized its cell.
  static func deallocate(_ slot: UnsafeMutablePointer<FastSlot>) {
    slot.deinitialize(count: 1)
    UnsafeMutableRawPointer(slot).deallocate()
  }

}

extension FastSlot {
  /// Calls `body` with the factory cell, of type `Cell`, borrowed: with
  /// no retain and release of the function's context.
  ///
  /// Reading a function out of memory copies it, because the compiler
  /// cannot prove the memory unchanged while the function runs; the copy
  /// costs two atomic operations per call, a noticeable share of making a
  /// small object. A cell is written once, before its record is published,
  /// and destroyed only with the record, which outlives every resolution
  /// of it, so the copy buys nothing: this takes the function's bits out
  /// of the cell without a retain (memory that is never written again
  /// keeps them, for every other reader), and puts them, afterwards, into
  /// a temporary that is never destroyed, so that no release balances a
  /// retain that never happened.
  @inlinable @inline(__always)
  func withFactory<Cell, Result>(as _: Cell.Type, _ body: (borrowing Cell) throws -> Result) rethrows
    -> Result
  {
    try withUnsafeTemporaryAllocation(of: Cell.self, capacity: 1) { scratch in
      let cell = factory.assumingMemoryBound(to: Cell.self).move()
      defer { scratch.baseAddress.unsafelyUnwrapped.initialize(to: cell) }
      return try body(cell)
    }
  }
}

/// The factory of a registration without runtime arguments, as its
/// ``FastSlot`` holds it: in a struct, because memory of a generic type
/// holds a bare function with every argument passed indirectly, which
/// would cost each call a thunk. Frozen (Kit/ABI.md): the inlined resolve
/// calls ``call``.
@frozen @usableFromInline
struct FactoryCell<Service> {
  @usableFromInline let call: @Sendable (Resolver) throws -> Service

  init(_ call: @escaping @Sendable (Resolver) throws -> Service) {
    self.call = call
  }
}

/// The factory of a registration with runtime arguments, as its
/// ``FastSlot`` holds it (see ``FactoryCell``; and Swift cannot store a
/// function over a type pack as memory of a generic type at all). Frozen
/// (Kit/ABI.md): the inlined resolve calls ``call``.
@frozen @usableFromInline
struct ArgumentFactoryCell<Service, First, each Rest> {
  @usableFromInline let call: @Sendable (Resolver, First, repeat each Rest) throws -> Service

  init(_ call: @escaping @Sendable (Resolver, First, repeat each Rest) throws -> Service) {
    self.call = call
  }
}
