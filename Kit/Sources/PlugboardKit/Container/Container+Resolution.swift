extension Container {
  /// The instance registered for `serviceType` under `name`.
  ///
  /// `let repository: AuthRepository = try container.resolve()` infers the
  /// type. A `.container` instance that already exists is returned without
  /// taking any lock.
  /// - Throws: ``ResolutionError`` (not registered, cycle, factory threw,
  ///   registered only with arguments, or too deep), carrying the chain.
  public func resolve<Service>(_ serviceType: Service.Type = Service.self, name: String? = nil)
    throws -> Service
  {
    guard let found = lookup(ObjectIdentifier(serviceType), name: name) else {
      throw missing(ServiceKey(service: TypeIdentity(serviceType), name: name), passed: [])
    }
    // The key matched the metatype and an empty argument list, so the
    // record is exactly this specialization.
    let record = unsafeDowncast(found, to: TypedRecord<Service>.self)
    if let instance = record.shared.current { return instance }
    return try make(record, hasArguments: false)
  }

  /// The instance of a registration whose factory takes runtime arguments,
  /// matched by their types, in order: `resolve(Cat.self, arguments: "Mimi", 3)`.
  /// - Throws: ``ResolutionError``; `argumentsMismatch` when the service is
  ///   registered with other argument types.
  public func resolve<Service, First, each Rest>(
    _ serviceType: Service.Type = Service.self, name: String? = nil,
    arguments first: First, _ rest: repeat each Rest
  ) throws -> Service {
    var ids = [ObjectIdentifier(First.self)]
    repeat ids.append(ObjectIdentifier((each Rest).self))
    guard
      let found = lookup(ObjectIdentifier(serviceType), name: name, arguments: ids),
      let record = found as? TypedRecord<Service, First, repeat each Rest>
    else {
      var passed = [TypeIdentity(First.self)]
      repeat passed.append(TypeIdentity((each Rest).self))
      throw missing(ServiceKey(service: TypeIdentity(serviceType), name: name), passed: passed)
    }
    if let instance = record.shared.current { return instance }
    return try make(record, hasArguments: true, first, repeat each rest)
  }

  /// The instance, or `nil` only when nothing is registered for the type and
  /// name; a registration that exists but fails still throws.
  public func resolveIfRegistered<Service>(
    _ serviceType: Service.Type = Service.self, name: String? = nil
  ) throws -> Service? {
    let id = ObjectIdentifier(serviceType)
    guard lookup(id, name: name) != nil || !argumentVariants(id, name: name).isEmpty else {
      return nil
    }
    return try resolve(serviceType, name: name)
  }

  // MARK: Making instances

  /// Enters `record` into the calling thread's chain, then makes (or finds)
  /// its instance according to its scope.
  func make<Service, each Argument>(
    _ record: TypedRecord<Service, repeat each Argument>, hasArguments: Bool,
    _ arguments: repeat each Argument
  ) throws -> Service {
    let context = ResolutionContext.current
    if !hasArguments && context.isActive(record) {
      throw cycle(closingAt: record, in: context)
    }
    if context.depth >= maximumDepth {
      throw ResolutionError(
        kind: .tooDeep(limit: maximumDepth), key: record.key, chain: context.links,
        registries: registries)
    }
    context.push(record, hasArguments: hasArguments)
    defer { context.pop() }
    if context.depth % DeepChain.levelsPerStack == 0 {
      return try DeepChain.run(context) {
        try produce(record, in: context, repeat each arguments)
      }
    }
    return try produce(record, in: context, repeat each arguments)
  }

  private func produce<Service, each Argument>(
    _ record: TypedRecord<Service, repeat each Argument>, in context: ResolutionContext,
    _ arguments: repeat each Argument
  ) throws -> Service {
    switch record.scope {
    case .transient:
      return try call(record, resolver: self, in: context, repeat each arguments)

    case .graph:
      let id = ObjectIdentifier(record)
      if let instance = context.graphInstances[id] as? Service { return instance }
      let instance = try call(record, resolver: self, in: context, repeat each arguments)
      context.graphInstances[id] = instance
      return instance

    case .container:
      // A container-scoped instance belongs to the container that holds the
      // registration, and resolves its dependencies there, so a parent's
      // singleton never captures a child's overrides.
      let coordinator = ConstructionCoordinator.shared
      let cell = ObjectIdentifier(record)
      while true {
        if let instance = record.shared.current { return instance }
        switch coordinator.claim(
          cell: cell, isReady: { record.shared.isReady }, by: ObjectIdentifier(context))
        {
        case .ready:
          continue
        case .deadlock:
          throw ResolutionError(
            kind: .cycle(path: context.links.map(\.key) + [record.key]), key: record.key,
            chain: context.links, registries: registries)
        case .owned:
          defer { coordinator.release(cell: cell) }
          let instance = try call(
            record, resolver: record.owner, in: context, repeat each arguments)
          record.shared.publish(instance)
          return instance
        }
      }

    case .weak:
      if let instance = record.weakInstance.withLock({ $0.object }) as? Service {
        return instance
      }
      let instance = try call(record, resolver: self, in: context, repeat each arguments)
      // Only class instances can be held weakly; bridging a value to an
      // object would make a box nobody else holds (or a cached NSNumber).
      guard type(of: instance as Any) is AnyObject.Type else { return instance }
      // Another thread may have made one meanwhile; if so, share that one.
      let earlier = record.weakInstance.withLock { reference -> WeakReference in
        if reference.object != nil { return reference }
        reference.object = instance as AnyObject
        return WeakReference()
      }
      return earlier.object as? Service ?? instance
    }
  }

  /// Runs the factory, turning anything it throws (other than a resolution
  /// error from further down, which already has its chain) into a
  /// `factoryFailed` error at this link.
  private func call<Service, each Argument>(
    _ record: TypedRecord<Service, repeat each Argument>, resolver: any Resolver,
    in context: ResolutionContext, _ arguments: repeat each Argument
  ) throws -> Service {
    do {
      return try record.factory(resolver, repeat each arguments)
    } catch let error as ResolutionError {
      throw error
    } catch {
      throw ResolutionError(
        kind: .factoryFailed(underlying: error), key: record.key, chain: context.links,
        registries: registries)
    }
  }

  // MARK: Failures

  private func cycle(closingAt record: RegistrationRecord, in context: ResolutionContext)
    -> ResolutionError
  {
    let start = context.frames.firstIndex { $0.record === record && !$0.hasArguments } ?? 0
    let path = context.frames[start...].map(\.record.key) + [record.key]
    let closing = ChainLink(key: record.key, site: record.site, scope: record.scope)
    return ResolutionError(
      kind: .cycle(path: path), key: record.key, chain: context.links + [closing],
      registries: registries)
  }

  /// The error for a key with no matching registration: arguments that do
  /// not match an existing registration, or nothing registered at all.
  func missing(_ key: ServiceKey, passed: [TypeIdentity]) -> ResolutionError {
    let context = ResolutionContext.current
    let variants = argumentVariants(key.service.id, name: key.name)
      .filter { $0.key.arguments.map(\.id) != passed.map(\.id) }
    let failing = ServiceKey(service: key.service, name: key.name, arguments: passed)
    if !variants.isEmpty {
      let link = ChainLink(key: failing, site: variants[0].site, scope: variants[0].scope)
      return ResolutionError(
        kind: .argumentsMismatch(passed: passed, registered: variants.map(\.key.arguments)),
        key: failing, chain: context.links + [link], registries: registries)
    }
    let link = ChainLink(key: failing, site: nil, scope: nil)
    return ResolutionError(
      kind: .notRegistered, key: failing, chain: context.links + [link], registries: registries)
  }
}
