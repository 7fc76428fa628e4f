import Foundation

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

  private let condition = NSCondition()
  /// The resolution making each cell. Unretained: it stays alive while it
  /// owns one, on a thread that is inside its factory.
  private var owners: [ObjectIdentifier: Unmanaged<ResolutionContext>] = [:]
  /// The cell each waiting resolution waits for. A waiting resolution's
  /// chain does not change until it stops waiting, which needs the lock, so
  /// others may read its chain under the lock.
  private var waiting: [ObjectIdentifier: ObjectIdentifier] = [:]

  func claim(cell: ObjectIdentifier, isReady: () -> Bool, by context: ResolutionContext) -> Claim {
    condition.lock()
    defer { condition.unlock() }
    while true {
      if isReady() { return .ready }
      guard owners[cell] != nil else {
        owners[cell] = .passUnretained(context)
        return .owned
      }
      if let deadlock = deadlock(wanting: cell, by: context) { return .deadlock(deadlock) }
      waiting[ObjectIdentifier(context)] = cell
      condition.wait()
      waiting[ObjectIdentifier(context)] = nil
    }
  }

  func release(cell: ObjectIdentifier) {
    condition.lock()
    owners[cell] = nil
    condition.broadcast()
    condition.unlock()
  }

  /// Follows owners and what they wait for from `cell`; a deadlock when
  /// the walk reaches a cell `context` owns.
  private func deadlock(wanting cell: ObjectIdentifier, by context: ResolutionContext) -> Deadlock? {
    // Each other thread met: its resolution, the cell it owns, the cell it
    // waits for.
    var others: [(context: ResolutionContext, owns: ObjectIdentifier, waitsFor: ObjectIdentifier)] = []
    var wanted = cell
    while let owner = owners[wanted]?.takeUnretainedValue() {
      if owner === context {
        return closedCycle(from: wanted, in: context, through: others)
      }
      guard let next = waiting[ObjectIdentifier(owner)], others.count < owners.count else {
        return nil
      }
      others.append((owner, wanted, next))
      wanted = next
    }
    return nil
  }

  /// The cycle as one path: the caller's chain from the cell it owns (that
  /// the last other thread waits for) down to the one it wants, then each
  /// other thread's chain below the cell it owns.
  private func closedCycle(
    from owned: ObjectIdentifier, in context: ResolutionContext,
    through others: [(context: ResolutionContext, owns: ObjectIdentifier, waitsFor: ObjectIdentifier)]
  ) -> Deadlock {
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
