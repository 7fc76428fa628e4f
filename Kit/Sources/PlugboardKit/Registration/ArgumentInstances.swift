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
  /// cell ``ConstructionCoordinator`` makes it once under. A reset retires
  /// it; a construction under way then keeps its instance in the slot its
  /// arguments have after the reset, as a plain `.container` instance made
  /// across a reset is kept after it: every instance handed out is kept,
  /// and so disposed by a later reset or disposal.
  final class Slot {
    let key: Key
    // Guarded by the table's lock.
    var instance: Any?
    var made: UInt64 = 0
    var isRetired = false

    init(key: Key) {
      self.key = key
    }
  }

  /// The arguments, each made `AnyHashable`, as the key.
  typealias Key = [AnyHashable]

  /// The key of arguments whose types are known to be `Hashable` only at
  /// run time (those a per-arguments registration takes, forwarded); `nil`
  /// when one is not.
  static func key<First, each Rest>(_ first: First, _ rest: repeat each Rest) -> Key? {
    var key: Key = []
    func add(_ value: Any) -> Bool {
      guard let hashable = value as? any Hashable else { return false }
      key.append(AnyHashable(hashable))
      return true
    }
    var complete = add(first)
    repeat complete = add(each rest) && complete
    return complete ? key : nil
  }

  // The arguments are kept as keys, compared from any thread: values.
  private let slots = Protected<[Key: Slot]>([:])

  /// The slot of `key`, made on first use.
  func slot(for key: Key) -> Slot {
    slots.withLock { Self.slot(for: key, in: &$0) }
  }

  private static func slot(for key: Key, in slots: inout [Key: Slot]) -> Slot {
    if let slot = slots[key] { return slot }
    let made = Slot(key: key)
    slots[key] = made
    return made
  }

  /// The slot that keeps the instance of `slot`'s arguments now: `slot`
  /// itself, or the one made for its arguments since a reset retired it.
  private static func current(_ slot: Slot, in slots: inout [Key: Slot]) -> Slot {
    slot.isRetired ? Self.slot(for: slot.key, in: &slots) : slot
  }

  /// The instance kept for `slot`'s arguments, if one is.
  func instance(in slot: Slot) -> Any? {
    slots.withLock { slots in slot.isRetired ? slots[slot.key]?.instance : slot.instance }
  }

  /// Keeps `instance` for `slot`'s arguments unless one is kept already
  /// (then returns that one), in the slot they have now if a reset
  /// retired `slot` meanwhile.
  func keep(_ instance: Any, in slot: Slot) -> Any? {
    slots.withLock { slots in
      let slot = Self.current(slot, in: &slots)
      if let earlier = slot.instance { return earlier }
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
