import Foundation

/// Makes sure each `.container` instance is made exactly once, without a
/// global lock around factories.
///
/// The first resolution to reach an unmade instance becomes its owner and
/// runs the factory with no lock held, so slow factories never block
/// unrelated services. Others wanting the same instance wait for the owner.
/// Before waiting, a resolution follows the chain "owner waits for an
/// instance whose owner waits for …"; if the chain comes back to itself the
/// services depend on each other across threads, and waiting would deadlock,
/// so it reports a cycle instead.
final class ConstructionCoordinator: @unchecked Sendable {
  // All fields are guarded by `condition`.
  static let shared = ConstructionCoordinator()

  enum Claim {
    /// The instance exists now; read it.
    case ready
    /// The caller owns construction and must call `release(_:)` afterwards.
    case owned
    /// Waiting would deadlock: the owner is (transitively) waiting on us.
    case deadlock
  }

  private let condition = NSCondition()
  private var owners: [ObjectIdentifier: ObjectIdentifier] = [:]
  private var waiting: [ObjectIdentifier: ObjectIdentifier] = [:]

  func claim(cell: ObjectIdentifier, isReady: () -> Bool, by context: ObjectIdentifier) -> Claim {
    condition.lock()
    defer { condition.unlock() }
    while true {
      if isReady() { return .ready }
      guard let owner = owners[cell] else {
        owners[cell] = context
        return .owned
      }
      if owner == context || waitsFor(owner, on: context) { return .deadlock }
      waiting[context] = cell
      condition.wait()
      waiting[context] = nil
    }
  }

  func release(cell: ObjectIdentifier) {
    condition.lock()
    owners[cell] = nil
    condition.broadcast()
    condition.unlock()
  }

  private func waitsFor(_ start: ObjectIdentifier, on target: ObjectIdentifier) -> Bool {
    var current = start
    var steps = 0
    while let cell = waiting[current], let next = owners[cell] {
      if next == target { return true }
      current = next
      steps += 1
      if steps > owners.count { return false }
    }
    return false
  }
}
