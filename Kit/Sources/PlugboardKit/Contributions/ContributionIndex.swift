import Synchronization

/// The contributions made in one container, per contract, in resolution
/// order.
///
/// A contribution is stored as a registration of its contract under a key
/// whose role is a contribution's (``ServiceKey/Role/contribution(_:)``),
/// so no request for the contract finds it, and resolving one reuses the
/// container's records, scopes, thread safety and diagnostics. The index
/// only remembers which contributions belong to a contract and in which
/// order; whether a contribution still takes part
/// (its profiles, `removeAll()`, a withdrawn plugin) is decided by the
/// container's snapshot, as for any registration.
@usableFromInline
final class ContributionIndex: Sendable {
  /// One contribution: the name it was given, its declared order and its
  /// place among all contributions.
  struct Slot: Sendable {
    let name: String?
    let order: Int
    let sequence: Int

    /// The role of the key its registration is stored under.
    var role: ServiceKey.Role { .contribution(sequence) }
  }

  /// The contributions of one contract that take part in one registry, in
  /// order: what `resolveAll` iterates, by their records' slots. Records
  /// live as long as their container (its log keeps them), so their slots
  /// are held unretained.
  @usableFromInline
  struct TakingPart {
    @usableFromInline var slots: [UnsafeMutablePointer<FastSlot>] = []
    @usableFromInline var names: [String?] = []

    init() {}
  }

  /// ``TakingPart`` remembered for the registry it was looked up in.
  /// Holding the registry keeps its address from being reused by a later
  /// one, so identity says "unchanged": every change that can make a
  /// contribution stop or start taking part (profile, selection,
  /// exclusion, removal) publishes a new registry, and a new contribution
  /// goes through ``add(_:for:)``, which forgets.
  private struct Remembered {
    let registry: AnyObject
    let takingPart: TakingPart
  }

  private struct State {
    var slots: [ObjectIdentifier: [Slot]] = [:]
    var remembered: [ObjectIdentifier: Remembered] = [:]
    /// Counts ``add(_:for:)`` calls, so that a lookup that raced one is
    /// not remembered.
    var generation = 0
  }

  private let state = Protected(State())
  /// The declared extension points (``Container/extensionPoint(_:cardinality:file:line:)``).
  private let declared = Protected<[ExtensionPointDeclaration]>([])

  /// Numbers contributions across every container of the process, so that
  /// their keys never repeat and registration order is total even between
  /// a parent and its children.
  private static let counter = Atomic<Int>(0)

  /// A new slot's sequence number.
  static func nextSequence() -> Int {
    counter.add(1, ordering: .relaxed).oldValue
  }

  /// Adds `slot` for `contract`, keeping the list ordered by declared
  /// order, then sequence (two threads contributing at once may reach the
  /// lock in the other order).
  func add(_ slot: Slot, for contract: ObjectIdentifier) {
    state.withLock { state in
      var list = state.slots[contract, default: []]
      let position =
        list.firstIndex { ($0.order, $0.sequence) > (slot.order, slot.sequence) } ?? list.endIndex
      list.insert(slot, at: position)
      state.slots[contract] = list
      state.remembered[contract] = nil
      state.generation &+= 1
    }
  }

  /// Records `declaration`, replacing an earlier one of its contract.
  func declare(_ declaration: ExtensionPointDeclaration) {
    declared.withLock { list in
      if let index = list.firstIndex(where: { $0.contract == declaration.contract }) {
        list[index] = declaration
      } else {
        list.append(declaration)
      }
    }
  }

  /// The declared extension points, in the order first declared.
  var declarations: [ExtensionPointDeclaration] {
    declared.withLock { $0 }
  }

  /// The slots of `contract`, ordered by declared order, then by sequence.
  func slots(for contract: ObjectIdentifier) -> [Slot] {
    state.withLock { $0.slots[contract] ?? [] }
  }

  /// What was remembered for `contract` in `registry`; otherwise its slots
  /// and the generation to hand back to ``remember(_:for:in:generation:)``.
  func takingPart(for contract: ObjectIdentifier, in registry: AnyObject) -> Lookup {
    state.withLock { state in
      if let remembered = state.remembered[contract], remembered.registry === registry {
        return .remembered(remembered.takingPart)
      }
      return .unknown(slots: state.slots[contract] ?? [], generation: state.generation)
    }
  }

  /// What ``takingPart(for:in:)`` knows.
  enum Lookup {
    case remembered(TakingPart)
    case unknown(slots: [Slot], generation: Int)
  }

  /// Remembers `takingPart` unless a contribution was added since
  /// `generation` was read.
  func remember(
    _ takingPart: TakingPart, for contract: ObjectIdentifier, in registry: AnyObject, generation: Int
  ) {
    state.withLock { state in
      guard state.generation == generation else { return }
      state.remembered[contract] = Remembered(registry: registry, takingPart: takingPart)
    }
  }
}
