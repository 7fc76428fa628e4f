import Synchronization

extension Container {
  /// Adds a contribution to the extension point `serviceType`: one of many
  /// registrations that together serve it, rather than one that replaces
  /// another.
  ///
  /// ```swift
  /// container.contribute(Command.self, name: "help", order: 10) { r in
  ///   HelpCommand(registry: try r.resolve())
  /// }
  /// .inObjectScope(.container)
  ///
  /// let commands = try container.resolveAll(Command.self)  // [Command]
  /// ```
  ///
  /// Contributions are resolved together by ``resolveAll(_:)``,
  /// ``resolveAllNamed(_:)`` or as a ``Contributions`` dependency, ordered
  /// by `order` (lower first), then by registration order: the host
  /// assembles plugins in manifest order, so contributions of equal order
  /// follow the manifest. The returned entry configures this contribution
  /// alone (`inObjectScope`, `dependsOn`, `inProfiles`): each contribution
  /// has its own scope and instances.
  ///
  /// A contribution neither replaces nor is replaced by a `register` of the
  /// same type: `resolve(Command.self)` still finds only the plain
  /// registration. Two contributions with the same `name` both take part.
  ///
  /// A contribution is stored as a registration of `serviceType` whose
  /// key keeps `name` and has a contribution's role
  /// (``ServiceKey/isContribution``), so registration listings and failure
  /// chains show it as one: `Command contribution "help"`.
  /// - Parameters:
  ///   - name: identifies the contribution in ``resolveAllNamed(_:)`` and
  ///     in diagnostics.
  ///   - order: where it goes among the contract's contributions.
  ///   - factory: makes the instance; what it throws reaches the caller of
  ///     `resolveAll` as a ``ResolutionError`` naming this contribution.
  @discardableResult
  public func contribute<Service>(
    _ serviceType: Service.Type,
    name: String? = nil,
    order: Int = 0,
    file: String = #fileID,
    line: Int = #line,
    factory: @escaping @Sendable (Resolver) throws -> Service
  ) -> ServiceEntry<Service> {
    contributing(serviceType, name: name, order: order) { key in
      register(serviceType, key: key, file: file, line: line, factory: factory)
    }
  }

  /// Registers a contribution, synchronous or async, through `register`
  /// under a fresh contribution's key, and gives it its place by `order`.
  func contributing<Service>(
    _ serviceType: Service.Type, name: String?, order: Int,
    register: (ServiceKey) -> ServiceEntry<Service>
  ) -> ServiceEntry<Service> {
    let slot = ContributionIndex.Slot(name: name, order: order, sequence: ContributionIndex.nextSequence())
    let entry = register(ServiceKey(serviceType, name: name, role: slot.role))
    contributions.add(slot, for: ObjectIdentifier(serviceType))
    return entry
  }

  /// Every contribution to `serviceType`, here and in parents, in their
  /// documented order (see ``contribute(_:name:order:file:line:factory:)``);
  /// `[]` when there is none, since an extension point may be empty.
  ///
  /// ```swift
  /// for command in try container.resolveAll(Command.self) { command.install() }
  /// ```
  ///
  /// Contributions whose profiles are not active, or whose plugin was
  /// withdrawn, are left out. Each is made according to its own scope.
  /// - Throws: ``ResolutionError`` of the first contribution that fails;
  ///   its chain starts at that contribution's key, which holds its name,
  ///   and at its registration site.
  @inlinable
  public func resolveAll<Service>(_ serviceType: Service.Type = Service.self) throws -> [Service] {
    let takingPart = contributionsTakingPart(for: ObjectIdentifier(serviceType))
    // Reserved: grown one append at a time, the array would be reallocated
    // several times for a handful of contributions.
    var all: [Service] = []
    all.reserveCapacity(takingPart.slots.count)
    try forEachContribution(serviceType, in: takingPart) { _, instance in all.append(instance) }
    return all
  }

  /// The named contributions to `serviceType`, by name:
  /// `try container.resolveAllNamed(Command.self)["help"]`.
  ///
  /// Contributions without a name are left out (``resolveAll(_:)`` has
  /// them all). When two contributions share a name, the one later in
  /// order wins, as a later `register` of a key does.
  /// - Throws: ``ResolutionError`` of the first contribution that fails.
  public func resolveAllNamed<Service>(_ serviceType: Service.Type = Service.self) throws
    -> [String: Service]
  {
    var named: [String: Service] = [:]
    try forEachContribution(serviceType, in: contributionsTakingPart(for: ObjectIdentifier(serviceType))) {
      name, instance in
      if let name { named[name] = instance }
    }
    return named
  }

  /// Leaves the contribution stored under `key` out of its extension
  /// point, as if it were registered for another profile: `resolveAll`,
  /// `Contributions<T>` and the graph checks no longer see it, and it is
  /// listed among ``inactiveRegistrations`` with `reason` as its
  /// ``RegistrationInfo/exclusion``. The host does this for a manifest's
  /// `"contributions": { "Command": { "exclude": ["trace"] } }`; a program
  /// or a test can do the same:
  ///
  /// ```swift
  /// for info in container.registrations where info.key.contributionName == "trace" {
  ///   container.excludeContribution(info.key, reason: "excluded by the test")
  /// }
  /// ```
  ///
  /// A key that is not a contribution made in this container is ignored
  /// and `false` returned: exclusion is for contributions, and a plain
  /// registration is switched with ``select(name:for:reason:)`` or
  /// profiles instead. Takes effect for resolutions that start later.
  /// To exclude many, ``excludeContributions(_:)`` does it in one pass.
  @discardableResult
  public func excludeContribution(_ key: ServiceKey, reason: String) -> Bool {
    !excludeContributions([key: reason]).isEmpty
  }

  /// Leaves out each contribution of `reasons`' keys, with its reason, as
  /// ``excludeContribution(_:reason:)`` does one: in one pass over the
  /// registrations and with one change published, however many there
  /// are (the host excludes a manifest's whole `"contributions"` rules
  /// at once).
  ///
  /// ```swift
  /// container.excludeContributions([traceKey: "excluded by the test", debugKey: "excluded by the test"])
  /// ```
  /// - Returns: the keys excluded; those that are not contributions made
  ///   in this container are ignored.
  @discardableResult
  public func excludeContributions(_ reasons: [ServiceKey: String]) -> Set<ServiceKey> {
    exclude(reasons, where: \.isContribution)
  }

  /// Leaves out each registration of `reasons`' keys that `isExcludable`
  /// accepts (a contribution, a decorator), with its reason, in one pass
  /// and with one change published.
  func exclude(_ reasons: [ServiceKey: String], where isExcludable: (ServiceKey) -> Bool) -> Set<ServiceKey> {
    guard reasons.keys.contains(where: isExcludable) else { return [] }
    let records = state.withLock { $0.log.records(upTo: $0.log.count) }
    var excluded: Set<ServiceKey> = []
    for record in records where isExcludable(record.key) {
      guard let reason = reasons[record.key] else { continue }
      record.withMetadata { $0.exclusion = reason }
      record.hasProfiles.store(true, ordering: .relaxed)
      excluded.insert(record.key)
    }
    if !excluded.isEmpty { invalidate() }
    return excluded
  }

  /// Makes each contribution of `takingPart` (from
  /// ``contributionsTakingPart(for:)``) in order and hands it to `body`:
  /// the callers build their own collection, not a list of tuples first
  /// (whose copies and destruction went through the runtime's generic
  /// tuple witnesses).
  @inlinable @inline(__always)
  func forEachContribution<Service>(
    _ serviceType: Service.Type, in takingPart: ContributionIndex.TakingPart,
    _ body: (String?, Service) throws -> Void
  ) throws {
    for (slot, name) in zip(takingPart.slots, takingPart.names) {
      if let instance = slot.pointee.shared.load(ordering: .acquiring) {
        try body(name, instance.assumingMemoryBound(to: Service.self).pointee)
      } else if let call = enterDirectCall(slot, hasArguments: false) {
        // A plain `.transient` contribution: its factory called here, as
        // `resolve` calls one (see Container+DirectCall.swift).
        let instance: Service
        do {
          defer { leaveDirectCall(call) }
          do {
            instance = try slot.pointee.withFactory(as: FactoryCell<Service>.self) { try $0.call(self) }
          } catch {
            throw failure(error, at: slot, inDirectCall: call)
          }
        }
        try body(name, instance)
      } else {
        try body(name, try makeInstance(of: Service.self, from: slot))
      }
    }
  }

  /// The contributions to `id` that take part now, here and in the
  /// parents, in their documented order.
  ///
  /// Looking each one up by its role (a dictionary read per contribution)
  /// costs about as much as making it; a container without a parent
  /// remembers what it found for the registry it found it in, so the next
  /// `resolveAll` costs one locked dictionary read before making the
  /// instances.
  @usableFromInline
  func contributionsTakingPart(for id: ObjectIdentifier) -> ContributionIndex.TakingPart {
    guard parent == nil else { return lookUpTakingPart(id, slots: contributionSlots(for: id)) }
    let registry = tables
    switch contributions.takingPart(for: id, in: registry) {
    case .remembered(let takingPart):
      return takingPart
    case .unknown(let slots, let generation):
      let takingPart = lookUpTakingPart(id, slots: slots)
      // Remembered for the registry the lookups used, if no change
      // published another meanwhile.
      if tables === registry {
        contributions.remember(takingPart, for: id, in: registry, generation: generation)
      }
      return takingPart
    }
  }

  /// The registrations of `slots` that take part: a slot without one is a
  /// contribution of an inactive profile, excluded, or removed.
  private func lookUpTakingPart(_ id: ObjectIdentifier, slots: [ContributionIndex.Slot])
    -> ContributionIndex.TakingPart
  {
    var takingPart = ContributionIndex.TakingPart()
    takingPart.slots.reserveCapacity(slots.count)
    takingPart.names.reserveCapacity(slots.count)
    for slot in slots {
      guard let found = lookup(id, role: slot.role) else { continue }
      takingPart.slots.append(found._withUnsafeGuaranteedRef { $0.fast })
      takingPart.names.append(slot.name)
    }
    return takingPart
  }

  /// This container's slots for `id` merged with its ancestors', by
  /// declared order, then registration order.
  func contributionSlots(for id: ObjectIdentifier) -> [ContributionIndex.Slot] {
    var slots = contributions.slots(for: id)
    guard parent != nil else { return slots }
    var next = parent
    while let container = next {
      slots += container.contributions.slots(for: id)
      next = container.parent
    }
    return slots.sorted { ($0.order, $0.sequence) < ($1.order, $1.sequence) }
  }
}
