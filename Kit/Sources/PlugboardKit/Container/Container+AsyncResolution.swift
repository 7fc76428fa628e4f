extension Container {
  /// ``AsyncResolver/resolve(_:name:)``: an async registration is made by
  /// awaiting its factory, anything else by the synchronous resolve, with
  /// the async chain entered into the thread's chain first so that its
  /// errors name the whole chain.
  nonisolated(nonsending) func resolveAsync<Service>(_ serviceType: Service.Type, name: String?)
    async throws -> Service
  {
    guard let found = lookup(ObjectIdentifier(serviceType), name: name) else {
      // `Optional<T>` and `Contributions<T>` resolve their wrapped
      // registrations now, so they await the async ones.
      if let wrapper = WrapperTypes.wrapper(serviceType) as? any AsyncWrapperRequest.Type,
        let value = try await wrapper.resolveAsyncWrapper(in: self, name: name) as? Service
      {
        return value
      }
      return try resolveSynchronously(serviceType, .named(name), below: AsyncResolutionContext.current)
    }
    return try await resolveAsync(serviceType, found, request: .named(name))
  }

  /// What a synchronous resolve from async code makes: the registration a
  /// request for a name finds, or one already found (a contribution,
  /// which no request names).
  enum SynchronousRequest: @unchecked Sendable {
    case named(String?)
    case record(Unmanaged<RegistrationRecord>)
  }

  /// The instance of `found`, argument-free and found for `request`, made
  /// as ``resolveAsync(_:name:)`` makes it.
  nonisolated(nonsending) func resolveAsync<Service>(
    _ serviceType: Service.Type, _ unmanaged: Unmanaged<RegistrationRecord>, request: SynchronousRequest
  ) async throws -> Service {
    let context = AsyncResolutionContext.current
    let found = unmanaged.takeUnretainedValue()
    if found.isolatedToMainActor {
      return try await resolveOnMainActor(serviceType, request, below: context)
    }
    guard found.hasAsyncFactory else {
      // A `.graph` instance is shared with the rest of the async request,
      // which the synchronous resolve, a graph of its own, cannot see.
      guard let context, found.scope == .graph, !found.isCustomScoped else {
        return try resolveSynchronously(serviceType, request, below: context)
      }
      if let kept = context.graph.instance(of: found, as: Service.self) { return kept }
      let made = try resolveSynchronously(serviceType, request, below: context)
      return context.graph.keep(made, of: found)
    }
    // The key matched this metatype with no arguments, so an async record
    // is exactly `AsyncPlainRecord<Service>`.
    let record = unsafeDowncast(found, to: AsyncPlainRecord<Service>.self)
    // A top-level request starts a chain (and a graph) of its own; the
    // factories below it see their links as the task's context.
    return try await make(record, below: context ?? AsyncResolutionContext()) { resolver in
      try await record.asyncFactory(resolver)
    }
  }

  /// The async registration of `serviceType` under `name` taking exactly
  /// the argument types `ids`, as the record type the caller expects;
  /// `nil` when there is none (a synchronous one, or none at all).
  func asyncArgumentRecord<Record: RegistrationRecord>(
    _ serviceType: any Any.Type, name: String?, arguments ids: [ObjectIdentifier], as _: Record.Type
  ) -> Record? {
    guard let found = lookup(ObjectIdentifier(serviceType), name: name, arguments: ids), found.hasAsyncFactory
    else { return nil }
    return found as? Record
  }

  /// Makes (or finds) the instance of an async registration with runtime
  /// arguments, awaiting `factory` with them. As a synchronous
  /// registration with arguments, one may request itself with other
  /// arguments (a tree, level by level): no cycle is reported.
  nonisolated(nonsending) func resolveAsync<Record: AsyncRecord, Arguments>(
    _ record: Record, factory: AsyncArgumentFactory<Record.Service, Arguments>,
    arguments: sending Arguments
  ) async throws -> Record.Service {
    let sent = SentArguments(value: arguments)
    return try await make(
      record, below: AsyncResolutionContext.current ?? AsyncResolutionContext(), detectsCycles: false
    ) { resolver in
      try await factory.call(resolver, sent.value)
    }
  }

  /// Runs a synchronous resolve from async code, with the records of the
  /// async chain above it entered into the thread's chain.
  func resolvingSynchronously<Service>(_ resolve: () throws -> Service) throws -> Service {
    guard let context = AsyncResolutionContext.current, context.depth > 0 else { return try resolve() }
    return try context.enteredIntoThread { _ in try resolve() }
  }

  /// The synchronous resolve, run with the records of the async chain
  /// above it entered into the thread's chain (a synchronous resolve never
  /// suspends, so they are popped on the thread that pushed them).
  private func resolveSynchronously<Service>(
    _ serviceType: Service.Type, _ request: SynchronousRequest, below context: AsyncResolutionContext?
  ) throws -> Service {
    let resolve = { () throws -> Service in
      switch request {
      case .named(let name): try self.resolve(serviceType, name: name)
      case .record(let found):
        try self.makeInstance(of: serviceType, from: found._withUnsafeGuaranteedRef { $0.fast })
      }
    }
    guard let context, context.depth > 0 else { return try resolve() }
    return try context.enteredIntoThread { _ in try resolve() }
  }

  /// The synchronous resolve of a registration isolated to the main actor,
  /// run there: from a `@MainActor` caller without leaving it. The async
  /// chain is entered into the main actor's thread, as for any synchronous
  /// resolve from async code.
  @MainActor
  private func resolveOnMainActor<Service>(
    _ serviceType: Service.Type, _ request: SynchronousRequest, below context: AsyncResolutionContext?
  ) async throws -> sending Service {
    try resolveSynchronously(serviceType, request, below: context)
  }

  /// Makes (or finds) the instance of an async registration according to
  /// its scope, as ``makeInstance(of:hasArguments:into:produce:)`` does
  /// for a synchronous one.
  nonisolated(nonsending) private func make<Record: AsyncRecord>(
    _ record: Record, below context: AsyncResolutionContext, detectsCycles: Bool = true,
    factory: nonisolated(nonsending) (AsyncResolver) async throws -> sending Record.Service
  )
    async throws -> Record.Service
  {
    typealias Service = Record.Service
    if detectsCycles, context.contains(record) { throw asyncCycle(closingAt: record, below: context) }
    if context.depth >= maximumDepth {
      throw ResolutionError(
        kind: .tooDeep(limit: maximumDepth), key: record.key, chain: context.links,
        registries: registries)
    }
    let link = context.entering(record)
    switch record.scope {
    case .transient:
      return try await run(record, in: link, resolver: self, factory: factory)

    case .graph:
      if let kept = context.graph.instance(of: record, as: Service.self) { return kept }
      let made = try await run(record, in: link, resolver: self, factory: factory)
      return context.graph.keep(made, of: record)

    case .weak:
      return try await makeWeak(record, below: context, in: link, factory: factory)

    case .scoped:
      return try await makePerScope(record, in: link, factory: factory)

    case .container:
      // As for a synchronous registration, the instance belongs to the
      // container holding the registration, which resolves its dependencies.
      return try await makeOnce(
        record, in: link, cell: ObjectIdentifier(record), kept: { record.storedInstance }
      ) {
        record.store(try await run(record, in: link, resolver: record.owner, factory: factory))
      }
    }
  }

  /// The `.weak` case of ``make(_:below:detectsCycles:factory:)``: shared
  /// within the async request, as `.graph`, and with any request while
  /// someone holds it.
  nonisolated(nonsending) private func makeWeak<Record: AsyncRecord>(
    _ record: Record, below context: AsyncResolutionContext, in link: AsyncResolutionContext,
    factory: nonisolated(nonsending) (AsyncResolver) async throws -> sending Record.Service
  ) async throws -> Record.Service {
    typealias Service = Record.Service
    if let kept = context.graph.instance(of: record, as: Service.self) { return kept }
    if let object = record.withWeakObject({ $0 }), let existing = object as? Service {
      return existing
    }
    var made = try await run(record, in: link, resolver: self, factory: factory)
    if type(of: made as Any) is AnyObject.Type {
      let object = made as AnyObject
      // Another request may have made one meanwhile; if so, share it.
      let earlier = record.withWeakObject { stored -> AnyObject? in
        if let stored { return stored }
        stored = object
        record.stampCreation()
        return nil
      }
      if let earlier = earlier as? Service { made = earlier }
    }
    return context.graph.keep(made, of: record)
  }

  /// The `.scoped` case of ``make(_:below:detectsCycles:factory:)``: once
  /// per scope, as a synchronous `.scoped` registration, but waiters
  /// suspend under the async coordinator (keyed by this scope and record)
  /// instead of blocking under the scope's own.
  nonisolated(nonsending) private func makePerScope<Record: AsyncRecord>(
    _ record: Record, in link: AsyncResolutionContext,
    factory: nonisolated(nonsending) (AsyncResolver) async throws -> sending Record.Service
  ) async throws -> Record.Service {
    func outsideScope(ended: Bool) -> ResolutionError {
      ResolutionError(
        kind: .outsideScope(scopeEnded: ended), key: record.key, chain: link.links, registries: registries)
    }
    guard let storage = enclosingScope else { throw outsideScope(ended: false) }
    return try await makeOnce(
      record, in: link, cell: storage.asyncCell(for: record),
      kept: { storage.instance(of: record) as? Record.Service }
    ) {
      guard storage.beginConstruction() else { throw outsideScope(ended: true) }
      defer { storage.finishConstruction() }
      // The factory resolves in the scope, so its `.scoped`
      // dependencies are this scope's.
      let made = try await run(record, in: link, resolver: self, factory: factory)
      return storage.keep(made, of: record) as? Record.Service ?? made
    }
  }

  /// Returns the instance `kept` finds, or makes and keeps it with
  /// `make`, once under the async coordinator's `cell`: the first request
  /// owns the construction, the others suspend until it is done (or
  /// failed, when the next one tries again), and a wait that would close a
  /// cycle across tasks throws it instead.
  ///
  /// The async form of ``makeOnce(_:in:into:produce:)``, and smaller: an
  /// async factory returns its instance rather than making it into memory
  /// the caller holds, its `initCompleted` handlers run (in `run`) before
  /// `make` keeps it, and nothing they resolve can make it again
  /// meanwhile, since a synchronous request for an async registration
  /// fails. So `make` keeps what it made, or the one kept before it.
  nonisolated(nonsending) private func makeOnce<Service>(
    _ record: RegistrationRecord, in link: AsyncResolutionContext, cell: ObjectIdentifier,
    kept: () -> Service?, make: () async throws -> Service
  ) async throws -> Service {
    let coordinator = AsyncConstructionCoordinator.shared
    while true {
      if let instance = kept() { return instance }
      switch await coordinator.claim(cell: cell, by: link, isReady: { kept() != nil }) {
      case .ready:
        continue
      case .deadlock(let path):
        throw ResolutionError(
          kind: .cycle(path: path), key: record.key, chain: link.links, registries: registries)
      case .owned:
        defer { coordinator.release(cell: cell) }
        return try await make()
      case .cancelled:
        throw CancellationError()
      }
    }
  }

  /// Runs the async factory with `link` as the task's chain, then the
  /// record's `initCompleted` handlers, turning what they throw into a
  /// failure at this link as the synchronous path does.
  nonisolated(nonsending) private func run<Service>(
    _ record: RegistrationRecord, in link: AsyncResolutionContext, resolver: Container,
    factory: nonisolated(nonsending) (AsyncResolver) async throws -> sending Service
  ) async throws -> Service {
    let made: Service
    do {
      made = try await AsyncResolutionContext.$current.withValue(link) {
        try await factory(AsyncResolver(resolver))
      }
    } catch {
      throw error is ResolutionError
        ? error
        : ResolutionError(
          kind: .factoryFailed(underlying: error), key: record.key, chain: link.links,
          registries: registries)
    }
    guard record.hasHandlers else { return made }
    var instance = made
    if !decoratorSlots(of: record).isEmpty {
      // Below this link, as a factory's own requests are.
      let box = SentInstance(value: instance)
      instance = try await AsyncResolutionContext.$current.withValue(link) {
        try await decorateAsync(box.value, of: record, resolver: resolver)
      }
    }
    try link.enteredIntoThread { thread in
      for handler in record.readingMetadata({ $0.initCompleted }) {
        do {
          try withUnsafeMutablePointer(to: &instance) { try handler(self, UnsafeMutableRawPointer($0)) }
        } catch {
          throw failure(error, at: record, in: thread)
        }
      }
    }
    return instance
  }

  /// The error for an async registration requested again below itself.
  private func asyncCycle(closingAt record: RegistrationRecord, below context: AsyncResolutionContext)
    -> ResolutionError
  {
    let records = context.records
    let start = records.firstIndex { $0 === record } ?? 0
    let closing = ChainLink(key: record.key, site: record.site, scope: record.scope)
    return ResolutionError(
      kind: .cycle(path: records[start...].map(\.key) + [record.key]), key: record.key,
      chain: context.links + [closing], registries: registries)
  }
}

/// An instance an async factory made, on its way through its decorators:
/// one request holds it, and hands it to one decorator at a time.
private struct SentInstance<Value>: @unchecked Sendable {
  let value: Value
}

/// Runtime arguments the caller of an async resolve sent, on their way
/// to the async factory. Unchecked: they were `sending`, and `make` runs
/// the factory at most once per request, so they are sent on only once.
private struct SentArguments<Arguments>: @unchecked Sendable {
  let value: Arguments
}
