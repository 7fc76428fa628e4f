import Synchronization

/// Makes sure each `.container` instance is made exactly once, without a
/// global lock around factories.
///
/// The first resolution to reach an unmade instance becomes its owner and
/// runs the factory with no lock held, so slow factories never block
/// unrelated services. Others wanting the same instance wait for the owner.
///
/// Before waiting, a resolution follows the wait-for graph: "the owner waits
/// for an instance whose owner waits for …". If it comes back to an instance
/// this resolution is making, the services depend on each other across
/// threads and waiting would deadlock, so it reports the closed cycle
/// instead, stitched together from the chains of every thread in it.
///
/// An instance whose `initCompleted` handlers are running is made but not
/// ready: others wait for the handlers too. A wait that would close a
/// cycle through such an instance is not a deadlock to report: the waiter
/// takes the instance, as a request from the handlers' own thread does.
///
/// What it cannot see: a factory that blocks on anything but another
/// `.container` instance — a semaphore, a lock, `DispatchQueue.sync`, a
/// thread it started and joins — while a thread it waits for resolves the
/// instance that factory is making. That thread waits for the owner here,
/// the owner waits outside Plugboard, and both wait forever. Resolving on
/// the factory's own thread instead (the resolver it was given) turns the
/// same dependency into an ordinary cycle error.
final class ConstructionCoordinator: @unchecked Sendable {
  // All fields are guarded by `condition`.
  static let shared = ConstructionCoordinator()

  enum Claim {
    /// The instance exists now; read it.
    case ready
    /// The caller owns construction and must call `release(_:)` afterwards.
    case owned
    /// The caller took the instance whose `initCompleted` handlers are
    /// still running: waiting for them would have closed a deadlock.
    case adopted
    /// Waiting would deadlock: the owner is (transitively) waiting on us.
    case deadlock(Deadlock)
  }

  /// A cycle of `.container` constructions across threads.
  struct Deadlock {
    /// The closed cycle, from the instance the caller is making that the
    /// others wait for, back to it: B → A → B.
    let path: [ServiceKey]
    /// The other threads in it, in cycle order.
    let otherThreads: [ResolutionError.ThreadWait]
  }

  /// An instance made but not yet published, while its owner runs its
  /// `initCompleted` handlers.
  struct Completing {
    let instance: UnsafeMutableRawPointer
    let owner: ObjectIdentifier
  }

  /// Another thread met on the way round a wait-for cycle.
  private struct Waiter {
    let context: ResolutionContext
    let owns: ObjectIdentifier
    let waitsFor: ObjectIdentifier
  }

  private let condition = Condition()
  /// The resolution making each cell. Unretained: it stays alive while it
  /// owns one, on a thread that is inside its factory.
  private var owners: [ObjectIdentifier: Unmanaged<ResolutionContext>] = [:]
  /// The cell each waiting resolution waits for. A waiting resolution's
  /// chain does not change until it stops waiting, which needs the lock, so
  /// others may read its chain under the lock.
  private var waiting: [ObjectIdentifier: ObjectIdentifier] = [:]
  /// The cells whose instances are made and whose handlers are running.
  private var completing: [ObjectIdentifier: Completing] = [:]
  /// Waiting resolutions woken to take a completing instance, with its cell.
  private var excused: [ObjectIdentifier: ObjectIdentifier] = [:]

  /// Owns `cell` for `context`, or waits until its instance is ready.
  ///
  /// An instance whose `initCompleted` handlers are running is not ready:
  /// others wait for the handlers, so nobody sees it half wired. The one
  /// exception is a wait that would deadlock through it (the handlers
  /// resolve, on their thread, what the waiter is making, as a child's
  /// handler resolves its parent): then the waiter takes the instance
  /// through `adopt`, as a resolution on the handlers' own thread would,
  /// and the handlers go on once the waiter has made what they need.
  func claim(
    cell: ObjectIdentifier, isReady: () -> Bool, adopt: (UnsafeMutableRawPointer) -> Void,
    by context: ResolutionContext
  ) -> Claim {
    condition.lock()
    defer { condition.unlock() }
    let me = ObjectIdentifier(context)
    while true {
      if isReady() { return .ready }
      guard owners[cell] != nil else {
        owners[cell] = .passUnretained(context)
        return .owned
      }
      if let (owned, others) = waitCycle(wanting: cell, by: context) {
        if let pending = completing[cell] {
          adopt(pending.instance)
          return .adopted
        }
        // Someone else on the cycle waits for handlers to finish: wake it
        // with the instance, which unblocks the cycle, and look again.
        if let other = others.first(where: { completing[$0.waitsFor] != nil }) {
          let id = ObjectIdentifier(other.context)
          waiting[id] = nil
          excused[id] = other.waitsFor
          condition.broadcast()
          continue
        }
        return .deadlock(closedCycle(from: owned, in: context, through: others))
      }
      waiting[me] = cell
      condition.wait()
      waiting[me] = nil
      // The instance is read under the lock: its owner cannot publish or
      // drop it before `endCompleting`, which needs the lock too.
      if let cell = excused.removeValue(forKey: me), let pending = completing[cell] {
        adopt(pending.instance)
        return .adopted
      }
    }
  }

  func release(cell: ObjectIdentifier) {
    condition.lock()
    owners[cell] = nil
    condition.broadcast()
    condition.unlock()
  }

  /// Marks `cell`'s instance at `instance` as made by `context` and in its
  /// `initCompleted` handlers; returns what to pass to ``endCompleting(_:restoring:)``.
  func beginCompleting(
    _ cell: ObjectIdentifier, at instance: UnsafeMutableRawPointer, by context: ResolutionContext
  )
    -> Completing?
  {
    condition.lock()
    defer { condition.unlock() }
    let previous = completing[cell]
    completing[cell] = Completing(instance: instance, owner: ObjectIdentifier(context))
    return previous
  }

  /// Ends what ``beginCompleting(_:at:by:)`` began, before the instance is
  /// published or dropped.
  func endCompleting(_ cell: ObjectIdentifier, restoring previous: Completing?) {
    condition.lock()
    completing[cell] = previous
    condition.unlock()
  }

  /// Passes to `adopt` the instance `context` itself is completing for
  /// `cell`, if it is: a handler asking back for what it wires.
  func adoptCompleting(
    _ cell: ObjectIdentifier, by context: ResolutionContext, _ adopt: (UnsafeMutableRawPointer) -> Void
  ) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    guard let pending = completing[cell], pending.owner == ObjectIdentifier(context) else { return false }
    adopt(pending.instance)
    return true
  }

  /// How many resolutions wait for `cell` now; for tests that need a
  /// thread to be waiting before they let another go on.
  func waiterCount(for cell: ObjectIdentifier) -> Int {
    condition.lock()
    defer { condition.unlock() }
    return waiting.values.count { $0 == cell }
  }

  /// Follows owners and what they wait for from `cell`. When the walk
  /// reaches a cell `context` owns, waiting would deadlock: that cell and
  /// the other threads met on the way.
  private func waitCycle(wanting cell: ObjectIdentifier, by context: ResolutionContext)
    -> (owned: ObjectIdentifier, others: [Waiter])?
  {
    var others: [Waiter] = []
    var wanted = cell
    while let owner = owners[wanted]?.takeUnretainedValue() {
      if owner === context { return (wanted, others) }
      guard let next = waiting[ObjectIdentifier(owner)], others.count < owners.count else {
        return nil
      }
      others.append(Waiter(context: owner, owns: wanted, waitsFor: next))
      wanted = next
    }
    return nil
  }

  /// The cycle as one path: the caller's chain from the cell it owns (that
  /// the last other thread waits for) down to the one it wants, then each
  /// other thread's chain below the cell it owns.
  private func closedCycle(
    from owned: ObjectIdentifier, in context: ResolutionContext, through others: [Waiter]
  )
    -> Deadlock
  {
    var path = Self.keys(of: context, from: owned, including: true)
    var waits: [ResolutionError.ThreadWait] = []
    for other in others {
      let below = Self.keys(of: other.context, from: other.owns, including: false)
      path += below
      let making = other.context.frames.first { ObjectIdentifier($0.record) == other.owns }
      if let making, let waitsFor = below.last {
        waits.append(ResolutionError.ThreadWait(making: making.record.key, waitsFor: waitsFor))
      }
    }
    return Deadlock(path: path, otherThreads: waits)
  }

  /// The keys of `context`'s chain from the first link making `cell` to the
  /// end, with or without that link.
  private static func keys(of context: ResolutionContext, from cell: ObjectIdentifier, including: Bool)
    -> [ServiceKey]
  {
    let frames = context.frames
    guard let start = frames.firstIndex(where: { ObjectIdentifier($0.record) == cell }) else {
      return frames.map(\.record.key)
    }
    return frames[(including ? start : start + 1)...].map(\.record.key)
  }
}
