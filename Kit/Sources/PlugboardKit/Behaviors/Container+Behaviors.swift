extension Container {
  /// Tells `behavior` of every registration made here from now on (not of
  /// earlier ones, nor of the parent's), as Swinject's `addBehavior`.
  public func addBehavior(_ behavior: any Behavior) {
    state.withLock { $0.behaviors.append(behavior) }
    announcing.store(true, ordering: .releasing)
  }

  /// Hands `record`, just registered, to the behaviors.
  func announce(_ record: RegistrationRecord) {
    guard record.key.role == .service else { return }
    for behavior in state.withLock({ $0.behaviors }) {
      record.announce(to: behavior, in: self)
    }
  }
}
