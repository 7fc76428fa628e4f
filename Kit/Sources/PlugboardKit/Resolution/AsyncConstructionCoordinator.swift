/// Makes sure each `.container` instance of an async registration is
/// made exactly once, with waiters suspended rather than blocking a thread.
///
/// The async counterpart of ``ConstructionCoordinator``: the first request
/// to reach an unmade instance owns its construction and runs the factory
/// with no lock held; the others suspend until the owner releases it, then
/// read the instance, or, if the factory threw, the next one owns the
/// construction and tries again, as the synchronous path does.
///
/// Before suspending, a request follows the wait-for graph: the owner of
/// the wanted instance, the requests waiting below that owner's link (its
/// factory or a child task of it), what they wait for, and so on. When it
/// comes back to a link above the request itself, the instances need each
/// other across tasks and waiting would never end, so the request fails
/// with a cycle instead. Like the synchronous coordinator it cannot see a
/// factory waiting on something else (a continuation, another task's
/// value) that in turn waits for this instance.
final class AsyncConstructionCoordinator: @unchecked Sendable {
  static let shared = AsyncConstructionCoordinator()

  enum Claim {
    /// The instance exists now; read it.
    case ready
    /// The caller owns construction and must call `release(cell:)` afterwards.
    case owned
    /// Waiting would never end; the closed cycle of keys.
    case deadlock(path: [ServiceKey])
    /// The waiting task was cancelled: it stops waiting for the owner,
    /// whose construction goes on for the others.
    case cancelled
  }

  private struct Waiter {
    /// Tells this waiter from the others, for its cancellation.
    let id: UInt64
    /// The link that wants the cell: its record is the cell's.
    let link: AsyncResolutionContext
    let cell: ObjectIdentifier
    let continuation: CheckedContinuation<Claim?, Never>
  }

  private struct State {
    /// The link making each cell: its record is the cell's.
    var owners: [ObjectIdentifier: AsyncResolutionContext] = [:]
    var waiters: [Waiter] = []
    var nextWaiter: UInt64 = 0
  }

  private let state = Protected(State())

  /// Claims `cell` for the request at `link`, the link entered to make the
  /// cell's record: `.ready` when `isReady` says the instance exists,
  /// `.owned` when no one is making it, else suspends until its owner
  /// releases it and tries again; `.cancelled` as soon as the waiting
  /// task is cancelled.
  nonisolated(nonsending) func claim(
    cell: ObjectIdentifier, by link: AsyncResolutionContext, isReady: () -> Bool
  ) async -> Claim {
    while true {
      let id = state.withLock { state -> UInt64 in
        state.nextWaiter += 1
        return state.nextWaiter
      }
      // Cancellation is checked under the lock before the waiter is added,
      // and the handler removes it under the lock: whichever comes first,
      // a cancelled waiter is resumed once, and never left behind.
      let outcome = await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Claim?, Never>) in
          let immediate = state.withLock { state -> Claim? in
            if isReady() { return .ready }
            guard let owner = state.owners[cell] else {
              state.owners[cell] = link
              return .owned
            }
            if let path = Self.deadlock(wanting: owner, by: link, in: state) {
              return .deadlock(path: path)
            }
            if Task.isCancelled { return .cancelled }
            state.waiters.append(Waiter(id: id, link: link, cell: cell, continuation: continuation))
            return nil
          }
          if let immediate { continuation.resume(returning: immediate) }
        }
      } onCancel: {
        let removed = state.withLock { state -> Waiter? in
          guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
          return state.waiters.remove(at: index)
        }
        removed?.continuation.resume(returning: .cancelled)
      }
      if let outcome { return outcome }
    }
  }

  /// Marks `cell` as made or failed, and wakes the requests waiting for it.
  func release(cell: ObjectIdentifier) {
    let woken = state.withLock { state -> [Waiter] in
      state.owners[cell] = nil
      let woken = state.waiters.filter { $0.cell == cell }
      state.waiters.removeAll { $0.cell == cell }
      return woken
    }
    for waiter in woken { waiter.continuation.resume(returning: nil) }
  }

  /// Whether a request is making `cell`'s instance, for tests that need
  /// the owner at work before a contender arrives.
  func isOwned(_ cell: ObjectIdentifier) -> Bool {
    state.withLock { $0.owners[cell] != nil }
  }

  /// The requests suspended for `cell`, for tests that need every
  /// contender waiting before the owner finishes.
  func waiterCount(for cell: ObjectIdentifier) -> Int {
    state.withLock { $0.waiters.count { $0.cell == cell } }
  }

  /// Follows the owner of the wanted instance, the requests waiting below
  /// that owner's link and the owners of what they wait for; the closed
  /// path of keys when that reaches a link above `link`.
  private static func deadlock(
    wanting owner: AsyncResolutionContext, by link: AsyncResolutionContext, in state: State
  ) -> [ServiceKey]? {
    var visited: Set<ObjectIdentifier> = []
    // `path` runs from the instance `link` wants to the one `owner` makes.
    func follow(_ owner: AsyncResolutionContext, _ path: [ServiceKey]) -> [ServiceKey]? {
      guard visited.insert(ObjectIdentifier(owner)).inserted else { return nil }
      if link !== owner, link.descends(from: owner) {
        // The caller's own chain from the instance it makes down to the
        // one it wants closes the cycle.
        let own = link.records.dropFirst(owner.depth - 1).dropLast().map(\.key)
        return own + path
      }
      for waiter in state.waiters where waiter.link !== owner && waiter.link.descends(from: owner) {
        guard let next = state.owners[waiter.cell], let key = next.record?.key else { continue }
        let below = waiter.link.records.dropFirst(owner.depth).dropLast().map(\.key)
        if let found = follow(next, path + below + [key]) { return found }
      }
      return nil
    }
    guard let key = owner.record?.key else { return nil }
    return follow(owner, [key])
  }
}
