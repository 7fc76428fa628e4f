import Synchronization

/// Holds a `.container` instance: written once, then read without locks.
///
/// The value is stored before `ready` is released, and read only after
/// `ready` is acquired, so a reader that sees `ready` sees the value.
/// Construction itself is coordinated by ``ConstructionCoordinator``.
final class InstanceCell<Value>: @unchecked Sendable {
  private let ready = Atomic<Bool>(false)
  private nonisolated(unsafe) var value: Value?

  /// The instance, if it has been made.
  @inline(__always)
  var current: Value? {
    guard ready.load(ordering: .acquiring) else { return nil }
    return value
  }

  var isReady: Bool { ready.load(ordering: .acquiring) }

  /// Stores the instance. Called once, by the construction owner.
  func publish(_ newValue: Value) {
    value = newValue
    ready.store(true, ordering: .releasing)
  }
}
