import Synchronization

/// The `.scoped` instances of one ``ServiceScope``, in the order they were
/// made, and the constructions under way in it.
///
/// Behind a lock, not published for lock-free reads as `.container`
/// instances are: a scope is short-lived and ends at a moment of its
/// caller's choosing, so each read takes the lock and copies the instance
/// out, and nothing is left for a reader when the scope hands its
/// instances to their dispose hooks.
final class ScopeStorage: @unchecked Sendable {
  /// Makes each of this scope's instances once, apart from every other
  /// scope's: scopes making the same registration at once neither wait for
  /// each other nor see each other's constructions as a cycle.
  let coordinator = ConstructionCoordinator()

  // Guarded by `condition`.
  private let condition = Condition()
  private var instances: [DroppedInstance] = []
  private var positions: [ObjectIdentifier: Int] = [:]
  private var constructing = 0
  private var isEnded = false
  private var waiters: [CheckedContinuation<Void, Never>] = []
  /// Per record, the object whose identity names its construction in this
  /// scope to the shared ``AsyncConstructionCoordinator``.
  private var asyncCells: [ObjectIdentifier: AsyncCell] = [:]

  private final class AsyncCell {}

  /// The cell under which an async factory's instance of `record` is made
  /// in this scope: unique to the scope and the record, and alive as long
  /// as the scope, so the async coordinator (shared by every container)
  /// never confuses two scopes' constructions.
  func asyncCell(for record: RegistrationRecord) -> ObjectIdentifier {
    condition.withLock {
      if let cell = asyncCells[ObjectIdentifier(record)] { return ObjectIdentifier(cell) }
      let cell = AsyncCell()
      asyncCells[ObjectIdentifier(record)] = cell
      return ObjectIdentifier(cell)
    }
  }

  /// The instance this scope made of `record`, if any.
  func instance(of record: RegistrationRecord) -> Any? {
    condition.withLock { positions[ObjectIdentifier(record)].map { instances[$0].instance } }
  }

  /// Counts a construction in, unless the scope has ended; a scope that
  /// ends meanwhile waits for it (see ``finishConstruction()``).
  func beginConstruction() -> Bool {
    condition.withLock {
      guard !isEnded else { return false }
      constructing += 1
      return true
    }
  }

  /// Keeps `instance` as the scope's instance of `record`, even when the
  /// scope ended meanwhile (its end is waiting to dispose it); or, when
  /// the scope already has one, returns that one and keeps nothing.
  func keep(_ instance: Any, of record: RegistrationRecord) -> Any? {
    condition.withLock {
      if let position = positions[ObjectIdentifier(record)] { return instances[position].instance }
      positions[ObjectIdentifier(record)] = instances.count
      instances.append(DroppedInstance(record: record, instance: instance))
      return nil
    }
  }

  /// Counts a construction out; the last one out of an ended scope lets
  /// its end go on.
  func finishConstruction() {
    let resumed = condition.withLock { () -> [CheckedContinuation<Void, Never>] in
      constructing -= 1
      guard constructing == 0, isEnded else { return [] }
      condition.broadcast()
      defer { waiters = [] }
      return waiters
    }
    for waiter in resumed { waiter.resume() }
  }

  /// Ends the scope: no construction starts in it any more. Whether this
  /// call ended it (a second one has nothing to dispose).
  func end() -> Bool {
    condition.withLock {
      defer { isEnded = true }
      return !isEnded
    }
  }

  /// Whether ``end()`` was called.
  var hasEnded: Bool { condition.withLock { isEnded } }

  /// Once the constructions under way have finished, the scope's
  /// instances, oldest first; the scope keeps none of them.
  func drainBlocking() -> [DroppedInstance] {
    condition.withLock {
      while constructing > 0 { condition.wait() }
      return takeAll()
    }
  }

  /// ``drainBlocking()`` without blocking a thread of the caller's executor.
  func drain() async -> [DroppedInstance] {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = condition.withLock {
        guard constructing > 0 else { return true }
        waiters.append(continuation)
        return false
      }
      if ready { continuation.resume() }
    }
    return condition.withLock { takeAll() }
  }

  private func takeAll() -> [DroppedInstance] {
    defer {
      instances = []
      positions = [:]
    }
    return instances
  }
}
