extension Container {
  /// Wraps the instance another registration makes, wherever it was
  /// registered: the way a tracing, metrics, caching or retry plugin wraps
  /// a service another plugin provides, without that plugin's cooperation.
  ///
  /// ```swift
  /// container.decorate(APIClient.self, name: "timing") { r, inner in
  ///   TimedAPIClient(inner, clock: try r.resolve())
  /// }
  /// .dependsOn(Clock.self)
  ///
  /// let client = try container.resolve(APIClient.self)  // a TimedAPIClient around the real one
  /// ```
  ///
  /// The decorator applies to the registration of `serviceType` under
  /// `target` (the unnamed one by default) that serves requests, whatever
  /// the order the two were registered in: a later registration of the key,
  /// or a profile's choice of another one, is decorated in its turn. The
  /// decorated instance keeps the target's scope: a `.container` service is
  /// made and decorated once, a `.transient` one on every request, and
  /// `onDispose` and `initCompleted` see the decorated instance.
  ///
  /// Several decorators of one target apply in a defined order: by `order`
  /// (lower first, so closer to the original), then in registration order
  /// (the host assembles plugins in manifest order). The last one applied
  /// is the outermost, the one callers get.
  ///
  /// The returned entry configures the decorator itself: ``ServiceEntry/dependsOn(_:)-(any Any.Type...)``
  /// declares what it resolves (so checks can follow it), and
  /// ``ServiceEntry/inProfiles(_:)`` makes it apply only in some
  /// profiles. Its scope is the target's: leave `inObjectScope` alone.
  /// The host can leave a decorator out from the manifest (`"decorators"`),
  /// as it does contributions.
  ///
  /// What can go wrong, and where it shows: a decorator whose target
  /// nothing registers is reported by
  /// ``validate(profile:requireApplication:configurations:)`` and
  /// `plugboard check` (and never runs); one that resolves the service it
  /// decorates closes a cycle, which resolving reports as a `cycle` error
  /// and the checks report before; what the decorator throws reaches the caller as a
  /// ``ResolutionError`` whose chain goes through the decorated service to
  /// the decorator. Registrations in child containers (``withOverrides(_:)``,
  /// ``Container/init(parent:defaultObjectScope:behaviors:maximumDepth:)``)
  /// are not decorated by a parent's decorators: a test's mock replaces the
  /// decorated service whole.
  /// - Parameters:
  ///   - target: the name of the registration to decorate.
  ///   - name: identifies the decorator in listings, diagnostics and the
  ///     manifest's rules.
  ///   - order: where it goes among the target's decorators.
  ///   - decorator: makes the instance callers get from the one the target
  ///     (or the decorator before this one) made.
  @discardableResult
  public func decorate<Service>(
    _ serviceType: Service.Type,
    target: String? = nil,
    name: String? = nil,
    order: Int = 0,
    file: String = #fileID,
    line: Int = #line,
    decorator: @escaping @Sendable (Resolver, Service) throws -> Service
  ) -> ServiceEntry<Service> {
    decorating(serviceType, target: target, name: name, order: order, isAsync: false) { key in
      register(serviceType, key: key, file: file, line: line, factory: decorator)
    }
  }

  /// Wraps another registration's instance with an `async` decorator, as
  /// `decorate(_:target:name:order:file:line:decorator:)` does with a
  /// synchronous one:
  ///
  /// ```swift
  /// container.decorate(Database.self, name: "warmed") { r, inner async throws in
  ///   try await inner.warmUp()
  ///   return inner
  /// }
  /// ```
  ///
  /// An async decorator applies where the instance is awaited: to an async
  /// registration (one with an async factory), resolved with `try await`.
  /// A synchronous registration is made by synchronous code that cannot
  /// await, so decorating one with an async decorator is a finding of
  /// ``validate(profile:requireApplication:configurations:)`` and
  /// `plugboard check`, and its synchronous resolve throws
  /// ``ResolutionError/Kind/asyncRegistration``.
  @discardableResult
  public func decorate<Service>(
    _ serviceType: Service.Type,
    target: String? = nil,
    name: String? = nil,
    order: Int = 0,
    file: String = #fileID,
    line: Int = #line,
    decorator: @escaping @isolated(any) @Sendable (AsyncResolver, Service) async throws -> sending Service
  ) -> ServiceEntry<Service> {
    decorating(serviceType, target: target, name: name, order: order, isAsync: true) { key in
      register(serviceType, key: key, file: file, line: line, factory: decorator)
    }
  }

  /// Registers a decorator through `register` under a fresh decorator's
  /// key, gives it its place among the target's decorators, and marks the
  /// target's registrations made so far.
  private func decorating<Service>(
    _ serviceType: Service.Type, target: String?, name: String?, order: Int, isAsync: Bool,
    register: (ServiceKey) -> ServiceEntry<Service>
  ) -> ServiceEntry<Service> {
    let slot = DecoratorIndex.Slot(
      name: name, targetName: target, order: order, sequence: DecoratorIndex.nextSequence(),
      applier: TypedDecoratorApplier<Service>(isAsync: isAsync))
    let entry = register(slot.key(of: TypeIdentity(serviceType)))
    // A decorator runs once for each instance of its target, which the
    // target's scope already shares as it should.
    entry.record.scope = .transient
    let id = ObjectIdentifier(serviceType)
    decorators.add(slot, for: DecoratorIndex.Target(type: id, name: target))
    // Every registration of the type, whatever its name: a profile's
    // choice of a named one makes it serve the unnamed requests a
    // decorator of the unnamed one wraps.
    let records = state.withLock { $0.log.records(upTo: $0.log.count) }
    for record in records where record.key.service.id == id {
      record.hasInitCompleted.store(true, ordering: .relaxed)
    }
    invalidate()
    return entry
  }

  /// Marks `record` as having a completion step when decorators target
  /// its type, so that the resolving code leaves its direct path for it;
  /// called as a registration is stored.
  func markIfDecorated(_ record: RegistrationRecord) {
    guard !decorators.isEmpty, record.key.role == .service, decorators.decorates(record.key.service.id) else {
      return
    }
    record.hasInitCompleted.store(true, ordering: .relaxed)
  }

  /// The decorators of `record` declared in the container that made it,
  /// in the order they apply: those of its key, and when a profile's
  /// choice makes it serve its type's unnamed requests, those of the
  /// unnamed registration too. `[]` for most records, at the cost of one
  /// atomic load.
  func decoratorSlots(of record: RegistrationRecord) -> [DecoratorIndex.Slot] {
    let owner = record.owner
    guard !owner.decorators.isEmpty, record.key.role == .service else { return [] }
    let id = record.key.service.id
    let own = owner.decorators.slots(for: DecoratorIndex.Target(type: id, name: record.key.name))
    guard let name = record.key.name, owner.state.withLock({ $0.selections[id]?.name }) == name else {
      return own
    }
    let unnamed = owner.decorators.slots(for: DecoratorIndex.Target(type: id, name: nil))
    return (own + unnamed).sorted { ($0.order, $0.sequence) < ($1.order, $1.sequence) }
  }

  /// `produce` followed by the decorators of `record`, each replacing the
  /// instance at the address with the one it makes.
  func decorated(
    _ record: RegistrationRecord, slots: [DecoratorIndex.Slot],
    produce: @escaping (Resolver, UnsafeMutableRawPointer) throws -> Void
  ) -> (Resolver, UnsafeMutableRawPointer) throws -> Void {
    { resolver, out in
      try produce(resolver, out)
      for slot in slots {
        try slot.applier.apply(slot.role, from: resolver, at: out)
      }
    }
  }

  /// `made` with the decorators of `record` applied, awaited: an async
  /// registration's instance.
  nonisolated(nonsending) func decorateAsync<Service>(
    _ made: Service, of record: RegistrationRecord, resolver: Container
  ) async throws -> Service {
    var instance: Any = made
    for slot in decoratorSlots(of: record) {
      instance = try await slot.applier.applyAsync(slot.role, from: resolver, to: instance)
    }
    return instance as? Service ?? made
  }

  /// The registration of the decorator of `Service` stored under `role`,
  /// here or in a parent; `nil` when it takes no part (another profile,
  /// excluded, withdrawn).
  func decoratorRecord<Service>(_ role: ServiceKey.Role, of _: Service.Type) -> ArgumentRecord<
    Service, Service
  >? {
    lookup(ObjectIdentifier(Service.self), role: role)?.takeUnretainedValue()
      as? ArgumentRecord<Service, Service>
  }

  /// What the decorator stored under `role` makes from `instance`, made as
  /// any registration with an argument is; `nil` when it takes no part.
  func resolveDecorator<Service>(_ role: ServiceKey.Role, of instance: Service) throws -> Service? {
    guard let record = decoratorRecord(role, of: Service.self) else { return nil }
    return try self.instance(of: Service.self, from: record.fast, arguments: instance)
  }

  /// The decorator stored under `key` in this container, with its target
  /// and order; `nil` when `key` is not a decorator declared here.
  ///
  /// ```swift
  /// for info in container.registrations {
  ///   if let decorator = container.decorator(of: info.key) { print(decorator.target) }
  /// }
  /// ```
  public func decorator(of key: ServiceKey) -> DecoratorInfo? {
    guard key.isDecorator, let slot = decorators.slot(sequence: key.role.sequence, of: key.service.id) else {
      return nil
    }
    return DecoratorInfo(slot, of: key.service)
  }

  /// The decorators declared here for the registration of `serviceType`
  /// under `name`, in the order they apply (innermost first), whether they
  /// take part in the active profile or not.
  public func decorators(of serviceType: TypeIdentity, name: String? = nil) -> [DecoratorInfo] {
    decorators.slots(for: DecoratorIndex.Target(type: serviceType.id, name: name)).map {
      DecoratorInfo($0, of: serviceType)
    }
  }

  /// Leaves out each decorator of `reasons`' keys, with its reason, as
  /// ``excludeContributions(_:)`` does contributions: it no longer applies,
  /// and is listed among ``inactiveRegistrations`` with `reason` as its
  /// ``RegistrationInfo/exclusion``. The host does this for a manifest's
  /// `"decorators": { "APIClient": { "exclude": ["timing"] } }`.
  ///
  /// ```swift
  /// for info in container.registrations where info.key.decoratorName == "timing" {
  ///   container.excludeDecorators([info.key: "excluded by the test"])
  /// }
  /// ```
  /// - Returns: the keys excluded; those that are not decorators declared
  ///   in this container are ignored.
  @discardableResult
  public func excludeDecorators(_ reasons: [ServiceKey: String]) -> Set<ServiceKey> {
    exclude(reasons, where: \.isDecorator)
  }
}
