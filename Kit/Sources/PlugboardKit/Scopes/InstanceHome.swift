/// Where a scope keeps the instance it shares, for ``Container/makeOnce(_:in:into:produce:)``:
/// the one step every sharing scope takes (make the instance once across
/// threads, let one made meanwhile win, complete it before anyone else
/// sees it, keep it) written once, over what differs between them.
///
/// The homes: the lock-free slot of a `.container` registration
/// (``LockFreeHome``), a custom scope's instance under the record's lock
/// (``CustomScopeHome``), a storage-factory custom scope's storage
/// (``InstanceStorageHome``), a ``ServiceScope`` (``ServiceScopeHome``),
/// and one instance per arguments (``ArgumentSlotHome``).
protocol InstanceHome {
  /// How the home holds an instance: a pointer to it, a box, a weak hold.
  associatedtype Kept

  /// The registration whose instance the home keeps.
  var record: RegistrationRecord { get }
  /// What the construction coordinator makes once: the record, unless it
  /// keeps several instances (one per arguments, see ``ArgumentInstances``).
  var cell: ObjectIdentifier { get }
  /// The coordinator making the instance: a ``ServiceScope`` has its own,
  /// so that scopes making the same registration neither wait for nor
  /// deadlock with each other.
  var coordinator: ConstructionCoordinator { get }

  /// The instance kept now, asked before making one; a home that must
  /// remember what it saw (a custom scope's generation) notes it here.
  mutating func find() -> Kept?
  /// The instance kept since ``find()``: one an `initCompleted` handler
  /// below this thread's construction made and kept meanwhile.
  func kept() -> Kept?
  /// Whether an instance is kept; asked under the coordinator's lock.
  func holdsOne() -> Bool
  /// Initializes `out` with the instance `kept` holds; `false` when it
  /// holds none any more (an object held weakly has gone).
  func initialize(_ out: UnsafeMutableRawPointer, from kept: Kept) -> Bool
  /// Keeps the complete instance at `out`, unless one is kept already:
  /// then returns that one and keeps nothing.
  func keep(_ out: UnsafeMutableRawPointer) -> Kept?
  /// Runs `make`, which makes and keeps the instance; a home whose owner
  /// waits for constructions to finish (a scope's end) counts it in.
  func constructing(_ make: () throws -> Void) throws
}

extension InstanceHome {
  var cell: ObjectIdentifier { ObjectIdentifier(record) }
  var coordinator: ConstructionCoordinator { .shared }
  mutating func find() -> Kept? { kept() }
  func holdsOne() -> Bool { kept() != nil }
  func constructing(_ make: () throws -> Void) throws { try make() }
}

extension Container {
  /// Makes the shared instance `home` keeps exactly once across threads,
  /// and copies it into `out`: one that is kept already is served;
  /// otherwise one thread runs `produce` (which initializes `out`) while
  /// the others wait, and threads whose instances need each other get a
  /// cycle error.
  ///
  /// An `initCompleted` handler running below this thread's own
  /// construction of the instance (Swinject's parent whose child's handler
  /// resolves it back) gets the instance those handlers complete, if they
  /// are its own (see ``completeBeforePublishing(_:cell:at:in:coordinator:)``);
  /// otherwise (the parent's factory still running) it makes the instance
  /// again, as Swinject does: this thread already owns the construction,
  /// the factory is not waiting on itself, and whichever instance is kept
  /// first wins. A constructor that needs itself never gets here: `enter`
  /// reports that cycle.
  func makeOnce<Home: InstanceHome>(
    _ home: inout Home, in context: ResolutionContext, into out: UnsafeMutableRawPointer,
    produce: () throws -> Void
  ) throws {
    let (record, cell, coordinator) = (home.record, home.cell, home.coordinator)
    let adopt = { (instance: UnsafeMutableRawPointer) in record.copy(instance, to: out) }
    func found() -> Bool {
      guard let kept = home.find() else { return false }
      return home.initialize(out, from: kept)
    }
    if context.isMakingBelowCycleFloor(record) {
      if !found() && !coordinator.adoptCompleting(cell, by: context, adopt) {
        try construct(home, in: context, into: out, produce: produce)
      }
      return
    }
    while !found() {
      switch coordinator.claim(cell: cell, isReady: { home.holdsOne() }, adopt: adopt, by: context) {
      case .ready:
        continue
      case .adopted:
        return
      case .deadlock(let deadlock):
        throw cycle(deadlock, at: record, in: context)
      case .owned:
        defer { coordinator.release(cell: cell) }
        try construct(home, in: context, into: out, produce: produce)
        return
      }
    }
  }

  /// The construction ``makeOnce(_:in:into:produce:)`` runs once: makes
  /// the instance into `out`, completes it, keeps it. An instance kept
  /// meanwhile, by an `initCompleted` handler below (a child's handler
  /// resolved this parent), wins, as in Swinject, so both ends see one
  /// object.
  private func construct<Home: InstanceHome>(
    _ home: Home, in context: ResolutionContext, into out: UnsafeMutableRawPointer,
    produce: () throws -> Void
  ) throws {
    let record = home.record
    try home.constructing {
      try produce()
      if let earlier = home.kept(), replace(record, at: out, by: { home.initialize($0, from: earlier) }) {
        return
      }
      try completeBeforePublishing(
        record, cell: home.cell, at: out, in: context, coordinator: home.coordinator)
      if let earlier = home.keep(out) {
        _ = replace(record, at: out) { home.initialize($0, from: earlier) }
      }
    }
  }

  /// Replaces the instance at `out` with the one `fill` writes into fresh
  /// memory, if it writes one (an object held weakly may be gone).
  func replace(
    _ record: RegistrationRecord, at out: UnsafeMutableRawPointer,
    by fill: (UnsafeMutableRawPointer) -> Bool
  ) -> Bool {
    let scratch = record.allocateInstance()
    defer { scratch.deallocate() }
    guard fill(scratch) else { return false }
    record.destroy(out)
    record.copy(scratch, to: out)
    record.destroy(scratch)
    return true
  }

  /// Runs the record's `initCompleted` handlers on the instance at
  /// `instance` before its scope publishes it: until they have run, other
  /// threads wait for it (see ``ConstructionCoordinator/claim(cell:isReady:adopt:by:)``)
  /// and only what the handlers resolve on this thread gets it. Nothing is
  /// published if they throw, so the next request makes it again.
  func completeBeforePublishing(
    _ record: RegistrationRecord, cell: ObjectIdentifier, at instance: UnsafeMutableRawPointer,
    in context: ResolutionContext, coordinator: ConstructionCoordinator
  ) throws {
    guard record.hasInitCompleted.load(ordering: .relaxed) else { return }
    let previous = coordinator.beginCompleting(cell, at: instance, by: context)
    defer { coordinator.endCompleting(cell, restoring: previous) }
    do {
      try completeInitialization(of: record, at: instance, in: context)
    } catch {
      record.destroy(instance)
      throw error
    }
  }

  /// The cycle error for threads whose shared instances wait on each other.
  private func cycle(
    _ deadlock: ConstructionCoordinator.Deadlock, at record: RegistrationRecord,
    in context: ResolutionContext
  ) -> ResolutionError {
    ResolutionError(
      kind: .cycle(path: deadlock.path), key: record.key, chain: context.links,
      registries: registries, otherThreads: deadlock.otherThreads)
  }
}

/// The `.container` instance of a plain registration: published in the
/// record's `shared` slot, which the inlined resolve reads without a lock.
struct LockFreeHome: InstanceHome {
  let record: RegistrationRecord

  func kept() -> UnsafeMutableRawPointer? { record.sharedInstance }

  func initialize(_ out: UnsafeMutableRawPointer, from kept: UnsafeMutableRawPointer) -> Bool {
    record.copy(kept, to: out)
    return true
  }

  func keep(_ out: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    if let stored = record.sharedInstance { return stored }
    let instance = record.allocateInstance()
    record.copy(out, to: instance)
    record.stampCreation()
    record.fast.pointee.shared.store(instance, ordering: .releasing)
    return nil
  }
}

/// The instance of a registration in a ``CustomScope`` without a storage
/// factory (or of a main-actor `.container` one): boxed, or held weakly,
/// under the record's lock, because a reset may drop it at any time.
///
/// A reset starts a new generation: an instance made across a reset
/// belongs to the old one, and only the caller that made it gets it.
struct CustomScopeHome: InstanceHome {
  let record: RegistrationRecord
  /// The generation ``find()`` saw.
  private var generation: UInt = 0

  init(record: RegistrationRecord) {
    self.record = record
  }

  mutating func find() -> Any? {
    let stored = record.withScopedInstance { $0 }
    generation = stored.generation
    return stored.value
  }

  func kept() -> Any? {
    record.withScopedInstance { scoped -> Any? in
      guard scoped.generation == generation, let value = scoped.value, record.holdsInstance(value)
      else { return nil }
      return value
    }
  }

  func holdsOne() -> Bool {
    record.withScopedInstance { record.holdsInstance($0.value) }
  }

  func initialize(_ out: UnsafeMutableRawPointer, from kept: Any) -> Bool {
    record.initialize(out, fromKept: kept)
  }

  func keep(_ out: UnsafeMutableRawPointer) -> Any? {
    let made = record.keptForScope(out)
    return record.withScopedInstance { scoped -> Any? in
      guard scoped.generation == generation else { return nil }
      if let value = scoped.value, record.holdsInstance(value) { return value }
      scoped.value = made
      record.stampCreation()
      return nil
    }
  }
}
