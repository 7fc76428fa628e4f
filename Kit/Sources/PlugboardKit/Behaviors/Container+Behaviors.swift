extension Container {
  /// Tells `behavior` of every registration made here from now on (not of
  /// earlier ones, nor of the parent's), as Swinject's `addBehavior`.
  public func addBehavior(_ behavior: any Behavior) {
    state.withLock { $0.behaviors.append(behavior) }
    announcing.store(true, ordering: .releasing)
  }

  /// Tells `behavior` of each registration that serves its key here with
  /// `profile` active (the container left as it is), in the order made, as
  /// if each were just registered: a behavior added after the assemblies
  /// ran (a check that resolves each registration through its static type,
  /// a tool that lists them) sees them all. Contributions, decorators and
  /// extension points are not announced, as they are not when registered.
  ///
  /// ```swift
  /// let lister = ServiceLister()  // a Behavior
  /// container.announceRegistrations(asIf: "mock", to: lister)
  /// ```
  public func announceRegistrations(asIf profile: String?, to behavior: any Behavior) {
    for record in registry(asIf: profile).records { announce(record, to: [behavior]) }
  }

  /// Hands `record`, just registered, to the behaviors.
  func announce(_ record: RegistrationRecord) {
    announce(record, to: state.withLock { $0.behaviors })
  }

  /// Hands `record` to `behaviors` when it is a service's registration:
  /// contributions, decorators and extension points are never announced.
  /// `behaviors` is read only for those.
  private func announce(_ record: RegistrationRecord, to behaviors: @autoclosure () -> [any Behavior]) {
    guard record.key.role == .service else { return }
    for behavior in behaviors() { record.announce(to: behavior, in: self) }
  }
}
