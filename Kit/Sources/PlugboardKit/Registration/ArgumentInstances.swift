/// The instances of a registration made with
/// ``Container/registerPerArguments(_:name:file:line:factory:)``: one per
/// distinct arguments, until its scope is reset or the container disposed.
///
/// Kept beside the record rather than in its lock-free `.container` slot:
/// a resolve inlined into a plugin reads that slot first and would hand
/// every argument the one instance stored there, so a per-arguments
/// registration never stores one there. Its factory (a wrapper made when
/// registering) consults this table instead, which an old plugin's inlined
/// resolve reaches too.
final class ArgumentInstances: @unchecked Sendable {
  /// The instance of one distinct arguments tuple. Its identity is the
  /// cell ``ConstructionCoordinator`` makes it once under; a reset retires
  /// it, so a construction under way then hands its instance to its own
  /// caller without keeping it.
  final class Slot {
    // Guarded by the table's lock.
    var instance: Any?
    var made: UInt64 = 0
    var isRetired = false
  }

  /// The arguments, each made `AnyHashable`, as the key.
  typealias Key = [AnyHashable]

  // The arguments are kept as keys, compared from any thread: values.
  private let slots = Protected<[Key: Slot]>([:])

  /// The slot of `key`, made on first use.
  func slot(for key: Key) -> Slot {
    slots.withLock { slots in
      if let slot = slots[key] { return slot }
      let made = Slot()
      slots[key] = made
      return made
    }
  }

  /// The instance `slot` keeps, if it keeps one.
  func instance(in slot: Slot) -> Any? {
    slots.withLock { _ in slot.instance }
  }

  /// Keeps `instance` in `slot` unless the slot keeps one already (then
  /// returns that one) or a reset retired it (then keeps nothing).
  func keep(_ instance: Any, in slot: Slot) -> Any? {
    slots.withLock { _ in
      if let earlier = slot.instance { return earlier }
      guard !slot.isRetired else { return nil }
      slot.instance = instance
      slot.made = CreationOrder.next()
      return nil
    }
  }

  /// Forgets every instance and returns them with when each was made, for
  /// their dispose hooks.
  func removeAll() -> [(made: UInt64, instance: Any)] {
    let removed = slots.withLock { slots in
      defer { slots = [:] }
      return slots.values.map { slot in
        slot.isRetired = true
        return (made: slot.made, instance: slot.instance)
      }
    }
    return removed.compactMap { kept in kept.instance.map { (kept.made, $0) } }
  }
}
