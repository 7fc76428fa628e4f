import Synchronization

/// The decorators declared in one container, per decorated service, in the
/// order they apply.
///
/// A decorator is stored as a registration of the service it decorates,
/// taking the instance it wraps as its one runtime argument, under a key
/// whose role is a decorator's (``ServiceKey/Role/decorator(_:)``): no
/// request for the service finds it, and resolving it reuses the
/// container's records, profiles, exclusion, thread safety and
/// diagnostics: a decorator that resolves the service it
/// decorates closes a cycle the usual check reports, and one that fails
/// names its chain. The index remembers which decorators target which
/// registration (a type and a name), in which order, and how to apply each
/// to an instance of the type it was declared for.
final class DecoratorIndex: Sendable {
  /// One decorator of one target.
  struct Slot: Sendable {
    /// The name given to `decorate`; `nil` when it was given none.
    let name: String?
    /// The name of the registration it decorates; `nil` for the unnamed one.
    let targetName: String?
    let order: Int
    /// Its place among every decorator of the process.
    let sequence: Int
    /// Applies it to an instance of the target's type.
    let applier: any DecoratorApplier

    /// The role of the key its registration is stored under.
    var role: ServiceKey.Role { .decorator(sequence) }

    /// The key its registration is stored under, for a target of `type`:
    /// the decorator's own name, and the instance it wraps as its argument.
    func key(of type: TypeIdentity) -> ServiceKey {
      ServiceKey(service: type, name: name, arguments: [type], role: role)
    }
  }

  /// What a decorator targets: a type and a registration name.
  struct Target: Hashable, Sendable {
    let type: ObjectIdentifier
    let name: String?
  }

  private let slots = Mutex<[Target: [Slot]]>([:])
  /// Whether any decorator was declared here: one relaxed load keeps
  /// registering and resolving in a container without decorators as they
  /// were.
  private let declared = Atomic<Bool>(false)

  /// Numbers decorators across every container of the process, so that
  /// their keys never repeat and the order of equal `order`s is total.
  private static let counter = Atomic<Int>(0)

  /// A new decorator's sequence number.
  static func nextSequence() -> Int {
    counter.add(1, ordering: .relaxed).oldValue
  }

  /// Whether any decorator was declared here.
  var isEmpty: Bool { !declared.load(ordering: .relaxed) }

  /// Adds `slot` for `target`, keeping the list ordered by declared order,
  /// then sequence.
  func add(_ slot: Slot, for target: Target) {
    slots.withLock { slots in
      var list = slots[target, default: []]
      let position =
        list.firstIndex { ($0.order, $0.sequence) > (slot.order, slot.sequence) } ?? list.endIndex
      list.insert(slot, at: position)
      slots[target] = list
    }
    declared.store(true, ordering: .relaxed)
  }

  /// The decorators of `target`, in the order they apply (innermost first).
  func slots(for target: Target) -> [Slot] {
    guard !isEmpty else { return [] }
    return slots.withLock { $0[target] ?? [] }
  }

  /// Whether any decorator here targets a registration of `type`.
  func decorates(_ type: ObjectIdentifier) -> Bool {
    guard !isEmpty else { return false }
    return slots.withLock { $0.keys.contains { $0.type == type } }
  }

  /// The slot of the decorator of `type` numbered `sequence`, if any.
  func slot(sequence: Int, of type: ObjectIdentifier) -> Slot? {
    guard !isEmpty else { return nil }
    return slots.withLock { slots in
      for (target, list) in slots where target.type == type {
        if let slot = list.first(where: { $0.sequence == sequence }) { return slot }
      }
      return nil
    }
  }
}

/// Applies one decorator to an instance: the part of a decorator that knows
/// the decorated type.
protocol DecoratorApplier: Sendable {
  /// Whether the decorator's factory is async (it then applies only where
  /// the instance is awaited).
  var isAsync: Bool { get }
  /// Replaces the instance at `instance` (of the decorated type) by the one
  /// the decorator stored under `role` makes from it, resolved from
  /// `resolver`; leaves it as it is when the decorator does not take part
  /// (another profile, excluded). On a throw the instance is destroyed.
  func apply(_ role: ServiceKey.Role, from resolver: Container, at instance: UnsafeMutableRawPointer) throws
  /// The instance the decorator makes from `instance`, awaited.
  nonisolated(nonsending) func applyAsync(_ role: ServiceKey.Role, from resolver: Container, to instance: Any)
    async throws -> Any
}

/// The ``DecoratorApplier`` of a decorator of `Service`.
struct TypedDecoratorApplier<Service>: DecoratorApplier {
  let isAsync: Bool

  func apply(_ role: ServiceKey.Role, from resolver: Container, at instance: UnsafeMutableRawPointer) throws {
    let typed = instance.assumingMemoryBound(to: Service.self)
    let decorated: Service?
    do {
      decorated = try resolver.resolveDecorator(role, of: typed.pointee)
    } catch {
      typed.deinitialize(count: 1)
      throw error
    }
    if let decorated { typed.pointee = decorated }
  }

  nonisolated(nonsending) func applyAsync(_ role: ServiceKey.Role, from resolver: Container, to instance: Any)
    async throws -> Any
  {
    guard let typed = instance as? Service,
      let record = resolver.decoratorRecord(role, of: Service.self)
    else { return instance }
    let sent = UncheckedInstance(value: typed)
    guard let factory = record.asyncFactory as? AsyncArgumentFactory<Service, Service> else {
      return try resolver.resolvingSynchronously {
        try resolver.instance(of: Service.self, from: record.fast, arguments: sent.value)
      }
    }
    return try await resolver.resolveAsync(record, factory: factory, arguments: sent.value)
  }
}

/// An instance on its way into an async decorator: `make` hands each
/// instance to one decorator at a time, so it is sent on only once.
private struct UncheckedInstance<Value>: @unchecked Sendable {
  let value: Value
}
