import Synchronization

extension Container {
  /// The instance registered for `serviceType` under `name`.
  ///
  /// `let repository: AuthRepository = try container.resolve()` infers the
  /// type. A `.container` instance that already exists is returned without
  /// taking any lock. Inlinable so that callers get a version specialized
  /// for their type, with no generic metadata to look up.
  /// - Throws: ``ResolutionError`` (not registered, cycle, factory threw,
  ///   registered only with arguments, or too deep), carrying the chain.
  @inlinable @inline(__always)
  public func resolve<Service>(_ serviceType: Service.Type = Service.self, name: String? = nil)
    throws -> Service
  {
    // Always inlined, and kept this small: left to the optimizer, the
    // singleton's path is sometimes outlined with its closure, which costs
    // it a call per resolve.
    let id = ObjectIdentifier(serviceType)
    if name == nil, let kept = KeptCache.instance(of: id, in: self) {
      return kept.assumingMemoryBound(to: Service.self).pointee
    }
    let found = if let name { find(id, name: name) } else { find(id) }
    guard let slot = found.slot else {
      return try resolveUnregistered(serviceType, name: name)
    }
    // The key matched this metatype with no arguments, so the record's
    // instances are of exactly this type, and its factory makes them.
    if let call = found.call {
      defer { leaveDirectCall(call) }
      do {
        return try slot.pointee.withFactory(as: FactoryCell<Service>.self) { try $0.call(self) }
      } catch {
        throw failure(error, at: slot, inDirectCall: call)
      }
    }
    if let instance = slot.pointee.shared.load(ordering: .acquiring) {
      return instance.assumingMemoryBound(to: Service.self).pointee
    }
    return try makeInstance(of: Service.self, from: slot)
  }

  /// An instance of the registration `resolve` found that its factory is
  /// not called for directly: a `.graph` instance this resolution already
  /// made, or one made (or found) by the general path.
  @inlinable
  func makeInstance<Service>(of _: Service.Type, from slot: UnsafeMutablePointer<FastSlot>) throws
    -> Service
  {
    if slot.pointee.scope.load(ordering: .relaxed) == RawScope.graph, let kept = keptGraphInstance(of: slot) {
      return kept.assumingMemoryBound(to: Service.self).pointee
    }
    return try makeInstanceInGeneral(of: Service.self, from: slot)
  }

  /// ``makeInstance(of:from:)`` by the general path: the instance is made
  /// in a temporary. Kept out of line so that the resolve stays small
  /// enough to be inlined into its caller, without this path's stack
  /// buffer and its guard.
  @inlinable @inline(never)
  func makeInstanceInGeneral<Service>(of _: Service.Type, from slot: UnsafeMutablePointer<FastSlot>)
    throws -> Service
  {
    try withUnsafeTemporaryAllocation(of: Service.self, capacity: 1) { buffer in
      let out = buffer.baseAddress.unsafelyUnwrapped
      try makeInstance(of: slot, hasArguments: false, into: UnsafeMutableRawPointer(out)) {
        resolver, out in
        try slot.pointee.withFactory(as: FactoryCell<Service>.self) {
          out.assumingMemoryBound(to: Service.self).initialize(to: try $0.call(resolver))
        }
      }
      return out.move()
    }
  }

  /// The instance of a registration whose factory takes runtime arguments,
  /// matched by their types, in order: `resolve(Cat.self, arguments: "Mimi", 3)`.
  ///
  /// Inlinable, so that callers get a version specialized for their types:
  /// the argument types are folded into one word as they are passed and
  /// confirmed one by one, with no array and no dynamic cast per call.
  /// - Throws: ``ResolutionError``; `argumentsMismatch` when the service is
  ///   registered with other argument types.
  @inlinable
  public func resolve<Service, First, each Rest>(
    _ serviceType: Service.Type = Service.self, name: String? = nil,
    arguments first: First, _ rest: repeat each Rest
  ) throws -> Service {
    var signature = ArgumentSignature(First.self)
    repeat signature.append((each Rest).self)
    let found = find(ObjectIdentifier(serviceType), name: name, signature: signature.value)
    guard let slot = found.slot else {
      return try resolveUnmatched(serviceType, name: name, arguments: first, repeat each rest)
    }
    var match = ArgumentMatch(slot)
    match.check(First.self)
    repeat match.check((each Rest).self)
    guard match.isComplete else {
      // Signatures collided: another registration, never entered for.
      if let call = found.call { leaveDirectCall(call) }
      return try resolveUnmatched(serviceType, name: name, arguments: first, repeat each rest)
    }
    // The key matched this metatype and these argument types, which are
    // the record's generic arguments.
    typealias Cell = ArgumentFactoryCell<Service, First, repeat each Rest>
    if let call = found.call {
      defer { leaveDirectCall(call) }
      do {
        return try slot.pointee.withFactory(as: Cell.self) { try $0.call(self, first, repeat each rest) }
      } catch {
        throw failure(error, at: slot, inDirectCall: call)
      }
    }
    return try instance(of: Service.self, from: slot, arguments: first, repeat each rest)
  }

  /// The instance of the registration of `slot`, whose argument types the
  /// request matched, found otherwise than by `find` (a decorator, an
  /// exact search after the signature missed) or not entered by it: its
  /// shared one, or one its factory makes now from the arguments.
  @inlinable
  func instance<Service, First, each Rest>(
    of _: Service.Type, from slot: UnsafeMutablePointer<FastSlot>, arguments first: First,
    _ rest: repeat each Rest
  ) throws -> Service {
    if let instance = slot.pointee.shared.load(ordering: .acquiring) {
      return instance.assumingMemoryBound(to: Service.self).pointee
    }
    typealias Cell = ArgumentFactoryCell<Service, First, repeat each Rest>
    if let call = enterDirectCall(slot, hasArguments: true) {
      defer { leaveDirectCall(call) }
      do {
        return try slot.pointee.withFactory(as: Cell.self) { try $0.call(self, first, repeat each rest) }
      } catch {
        throw failure(error, at: slot, inDirectCall: call)
      }
    }
    return try withUnsafeTemporaryAllocation(of: Service.self, capacity: 1) { buffer in
      let out = buffer.baseAddress.unsafelyUnwrapped
      try makeInstance(of: slot, hasArguments: true, into: UnsafeMutableRawPointer(out)) {
        resolver, out in
        try slot.pointee.withFactory(as: Cell.self) {
          out.assumingMemoryBound(to: Service.self).initialize(
            to: try $0.call(resolver, first, repeat each rest))
        }
      }
      return out.move()
    }
  }

  /// ``resolve(_:name:arguments:_:)`` when the signature found nothing (or,
  /// never in practice, a registration whose signature collided): the
  /// exact search by type identities, then wrappers, then the error.
  @usableFromInline
  func resolveUnmatched<Service, First, each Rest>(
    _ serviceType: Service.Type, name: String?, arguments first: First, _ rest: repeat each Rest
  ) throws -> Service {
    var ids = [ObjectIdentifier(First.self)]
    repeat ids.append(ObjectIdentifier((each Rest).self))
    guard
      let found = lookup(ObjectIdentifier(serviceType), name: name, arguments: ids),
      found is ArgumentRecord<Service, First, repeat each Rest>
    else {
      if let wrapped = try resolveUnregistered(
        serviceType, name: name, arguments: first, repeat each rest)
      {
        return wrapped
      }
      var passed = [TypeIdentity(First.self)]
      repeat passed.append(TypeIdentity((each Rest).self))
      throw missing(ServiceKey(service: TypeIdentity(serviceType), name: name), passed: passed)
    }
    return try instance(of: Service.self, from: found.fast, arguments: first, repeat each rest)
  }

  /// The instance of a registration with runtime arguments, or `nil` only
  /// when nothing is registered for the type and name with any arguments;
  /// a registration that exists but fails (or takes other arguments) still
  /// throws.
  public func resolveIfRegistered<Service, First, each Rest>(
    _ serviceType: Service.Type = Service.self, name: String? = nil,
    arguments first: First, _ rest: repeat each Rest
  ) throws -> Service? {
    guard hasVariantsOrWrapped(serviceType, name: name) else { return nil }
    return try resolve(serviceType, name: name, arguments: first, repeat each rest)
  }

  /// The instance, or `nil` only when nothing is registered for the type and
  /// name; a registration that exists but fails still throws.
  @inlinable
  public func resolveIfRegistered<Service>(
    _ serviceType: Service.Type = Service.self, name: String? = nil
  ) throws -> Service? {
    guard isServed(serviceType, name: name) else { return nil }
    return try resolveServed(serviceType, name: name)
  }

  /// `resolve`, specialized but out of line: inlined into
  /// ``resolveIfRegistered(_:name:)``, its registers and stack would be
  /// set up on every call, though a miss never runs it.
  @inlinable @inline(never)
  func resolveServed<Service>(_ serviceType: Service.Type, name: String?) throws -> Service {
    try resolve(serviceType, name: name)
  }

  // MARK: Making instances

  /// Enters `record` into the calling thread's chain, then makes (or finds)
  /// its instance into `out`, uninitialized memory for the service type,
  /// according to its scope; `produce` runs the factory.
  ///
  /// The general path: the specialized resolve calls a plain transient
  /// factory itself and copies a `.graph` instance the resolution already
  /// holds (see ``DirectCall``). What comes here is everything else: other
  /// scopes, handlers, and the transient requests a direct call declined
  /// (a thread's first resolution, a deep chain, a nearly full stack).
  func makeInstance(
    of record: RegistrationRecord, hasArguments: Bool, into out: UnsafeMutableRawPointer,
    produce: (Resolver, UnsafeMutableRawPointer) throws -> Void
  ) throws {
    try ResolutionContext.withCurrent { context in
      try enter(record, hasArguments: hasArguments, in: context)
      defer { context.pop() }
      // A decorated registration has a completion step, so it always
      // comes here; the check costs the others one load.
      if record.hasInitCompleted.load(ordering: .relaxed) {
        let slots = decoratorSlots(of: record)
        if !slots.isEmpty && record.decoratesOutsideFactory {
          try withoutActuallyEscaping(produce) { produce in
            try makeScopedOnEnoughStack(
              record, in: context, into: out, produce: decorated(record, slots: slots, produce: produce))
          }
          return
        }
      }
      try makeScopedOnEnoughStack(record, in: context, into: out, produce: produce)
    }
  }

  /// Checks for a cycle and the depth limit, then pushes the link; the
  /// caller pops it.
  @inline(__always)
  private func enter(
    _ record: RegistrationRecord, hasArguments: Bool, in context: ResolutionContext
  )
    throws
  {
    if !hasArguments && context.isActive(record) {
      throw cycle(closingAt: record, in: context)
    }
    if context.depth >= maximumDepth { throw tooDeep(at: record, in: context) }
    context.push(record, hasArguments: hasArguments)
  }

  /// The error for a chain at the depth limit; out of line, so that making
  /// it takes no registers or stack from the path that resolves.
  @inline(never)
  private func tooDeep(at record: RegistrationRecord, in context: ResolutionContext)
    -> ResolutionError
  {
    ResolutionError(
      kind: .tooDeep(limit: maximumDepth), key: record.key, chain: context.links,
      registries: registries)
  }

  private func makeScopedOnEnoughStack(
    _ record: RegistrationRecord, in context: ResolutionContext, into out: UnsafeMutableRawPointer,
    produce: (Resolver, UnsafeMutableRawPointer) throws -> Void
  ) throws {
    if context.stackIsLow {
      try DeepChain.run(
        context, on: hopThreads,
        refused: { reason in
          ResolutionError(
            kind: .stackExhausted(reason: reason), key: record.key, chain: context.links,
            registries: registries)
        }
      ) {
        try makeScoped(record, in: context, into: out, produce: produce)
      }
    } else {
      try makeScoped(record, in: context, into: out, produce: produce)
    }
  }

  /// Makes (or finds) the instance into `out` as the record's scope says.
  private func makeScoped(
    _ record: RegistrationRecord, in context: ResolutionContext, into out: UnsafeMutableRawPointer,
    produce: (Resolver, UnsafeMutableRawPointer) throws -> Void
  ) throws {
    switch record.scope {
    case .transient:
      try call(record, in: context) { try produce(self, out) }
      try completeInitialization(of: record, at: out, in: context)
    case .graph:
      try makeInGraph(record, in: context, into: out, produce: produce)
    case .container:
      try makeContainerScoped(record, in: context, into: out, produce: produce)
    case .weak:
      try makeWeak(record, in: context, into: out, produce: produce)
    case .scoped:
      try requireMainActor(for: record, in: context)
      try makePerScope(record, in: context, into: out, produce: produce)
    }
  }

  /// The `.graph` case: one instance per top-level resolution, kept in
  /// the resolution itself.
  private func makeInGraph(
    _ record: RegistrationRecord, in context: ResolutionContext, into out: UnsafeMutableRawPointer,
    produce: (Resolver, UnsafeMutableRawPointer) throws -> Void
  ) throws {
    if let shared = context.graphInstance(of: record) {
      record.copy(shared, to: out)
      return
    }
    let completions = context.completions
    try call(record, in: context) { try produce(self, out) }
    if adoptGraphInstance(of: record, madeSince: completions, at: out, in: context) { return }
    context.keepGraphInstance(of: record, copying: out)
    try completeInitialization(of: record, at: out, in: context)
  }

  /// Whether an `initCompleted` handler below made this service again
  /// while its factory ran (a parent resolved from its child's handler)
  /// and the graph kept that one: then, as in Swinject, the instance the
  /// graph holds wins, so both ends see one object, and replaces the one
  /// at `out`. (A registration with arguments may recurse legitimately, a
  /// tree level by level: each level keeps its own instance.)
  private func adoptGraphInstance(
    of record: RegistrationRecord, madeSince completions: Int, at out: UnsafeMutableRawPointer,
    in context: ResolutionContext
  ) -> Bool {
    guard context.completions != completions, record.key.arguments.isEmpty,
      let shared = context.graphInstance(of: record)
    else { return false }
    record.destroy(out)
    record.copy(shared, to: out)
    return true
  }

  /// The `.container` case: one instance, made once, kept where the
  /// registration says (see ``InstanceHome``).
  private func makeContainerScoped(
    _ record: RegistrationRecord, in context: ResolutionContext, into out: UnsafeMutableRawPointer,
    produce: (Resolver, UnsafeMutableRawPointer) throws -> Void
  ) throws {
    // A container-scoped instance belongs to the container that holds the
    // registration, and resolves its dependencies there, so a parent's
    // singleton never captures a child's overrides.
    func make() throws { try call(record, in: context) { try produce(record.owner, out) } }
    // One instance per arguments: the factory, a wrapper, keeps them
    // (see `registerPerArguments`), and nothing is stored for the
    // lock-free read, which would serve every argument the first one's.
    if record.argumentInstances != nil { return try make() }
    if record.isCustomScoped {
      try requireMainActor(for: record, in: context)
      if let scope = record.customScope, scope.storageFactory != nil {
        try makeInStorage(record, of: scope, in: context, into: out, make: make)
      } else {
        var home = CustomScopeHome(record: record)
        try makeOnce(&home, in: context, into: out, produce: make)
      }
      return
    }
    // Published for lock-free reads, a main-actor instance would reach
    // any thread that asks after it exists: it is kept under the lock,
    // and served after the actor is checked.
    if record.isolatedToMainActor {
      try requireMainActor(for: record, in: context)
      var home = CustomScopeHome(record: record)
      return try makeOnce(&home, in: context, into: out, produce: make)
    }
    var home = LockFreeHome(record: record)
    try makeOnce(&home, in: context, into: out, produce: make)
  }

  /// The `.weak` case. As Swinject's, `.weak` is composed with `.graph`:
  /// within one resolution its instance is kept and shared, so one made
  /// for an `initCompleted` handler is not released before the request
  /// that needs it gets it.
  private func makeWeak(
    _ record: RegistrationRecord, in context: ResolutionContext, into out: UnsafeMutableRawPointer,
    produce: (Resolver, UnsafeMutableRawPointer) throws -> Void
  ) throws {
    try requireMainActor(for: record, in: context)
    if let shared = context.graphInstance(of: record) {
      record.copy(shared, to: out)
      return
    }
    if let object = record.withWeakObject({ $0 }), record.initialize(out, from: object) {
      return
    }
    let completions = context.completions
    try call(record, in: context) { try produce(self, out) }
    if adoptGraphInstance(of: record, madeSince: completions, at: out, in: context) { return }
    guard let object = record.object(at: out) else {
      try completeInitialization(of: record, at: out, in: context)
      return
    }
    // Another thread may have made one meanwhile; if so, share that one.
    if let existing = record.withWeakObject({ $0 }),
      replace(record, at: out, by: { record.initialize($0, from: existing) })
    {
      context.keepGraphInstance(of: record, copying: out)
      return
    }
    // Kept in the graph for this thread's handlers, and published to
    // other threads only once they have run, so none gets it half wired
    // (`.container` waits instead; `.weak` construction is not exclusive).
    context.keepGraphInstance(of: record, copying: out)
    try completeInitialization(of: record, at: out, in: context)
    // One made meanwhile by another thread stays the one stored; this
    // resolution keeps its own, which its graph already holds.
    record.withWeakObject { stored in
      guard stored == nil else { return }
      stored = object
      record.stampCreation()
    }
  }

  /// Throws ``ResolutionError/Kind/mainActorIsolated`` for a registration
  /// isolated to the main actor requested from off it, before its scope
  /// serves an instance it kept. (Its factory checks for itself; `.graph`
  /// and `.transient` keep nothing another thread could be handed.)
  private func requireMainActor(for record: RegistrationRecord, in context: ResolutionContext) throws {
    guard record.isolatedToMainActor, !MainActorIsolation.isCurrent else { return }
    throw failure(MainActorIsolationRequired(), at: record, in: context)
  }

  /// Runs the record's `initCompleted` handlers on the instance at `out`,
  /// now that its scope can hand it out, so that what they resolve can
  /// resolve it back. Requests made from a handler may re-enter a
  /// registration still being constructed further up (Swinject's
  /// parent–child wiring); only a `.transient` one counts as a cycle there:
  /// every other scope makes its instance once more, and the one kept
  /// first (`.graph`, `.weak`) or stored first (`.container`) wins.
  func completeInitialization(
    of record: RegistrationRecord, at out: UnsafeMutableRawPointer, in context: ResolutionContext
  ) throws {
    guard record.hasInitCompleted.load(ordering: .relaxed) else { return }
    let handlers = record.readingMetadata { $0.initCompleted }
    // Decorators set the flag too, and have no handlers here.
    guard !handlers.isEmpty else { return }
    let floor = context.cycleFloor
    context.completions &+= 1
    context.cycleFloor = context.depth
    defer { context.cycleFloor = floor }
    for handler in handlers {
      try call(record, in: context) { try handler(self, out) }
    }
  }

  /// Runs the factory, turning anything it throws into a failure at this
  /// link (see ``failure(_:at:in:)``).
  func call(
    _ record: RegistrationRecord, in context: ResolutionContext, _ factory: () throws -> Void
  ) throws {
    do {
      try factory()
    } catch {
      throw failure(error, at: record, in: context)
    }
  }

  /// What a factory's error becomes: a resolution error from further down
  /// already has its chain and passes through; anything else becomes a
  /// `factoryFailed` error at this link.
  func failure(_ error: any Error, at record: RegistrationRecord, in context: ResolutionContext)
    -> any Error
  {
    if error is ResolutionError { return error }
    let kind: ResolutionError.Kind =
      switch error {
      case is AsyncRegistrationRequired: .asyncRegistration
      case is MainActorIsolationRequired: .mainActorIsolated
      default: .factoryFailed(underlying: error)
      }
    return ResolutionError(kind: kind, key: record.key, chain: context.links, registries: registries)
  }

  // MARK: Failures

  private func cycle(closingAt record: RegistrationRecord, in context: ResolutionContext)
    -> ResolutionError
  {
    let frames = context.frames
    let start = frames.firstIndex { $0.record === record && !$0.hasArguments } ?? 0
    let path = frames[start...].map(\.record.key) + [record.key]
    let closing = ChainLink(key: record.key, site: record.site, scope: record.scope)
    return ResolutionError(
      kind: .cycle(path: path), key: record.key, chain: context.links + [closing],
      registries: registries)
  }

  /// Whether the type has any registration under the name, taking runtime
  /// arguments or not: a request that then matches none of them reports
  /// the mismatch rather than `nil`.
  @usableFromInline
  func hasVariants(_ serviceType: any Any.Type, name: String?) -> Bool {
    hasRecords(ObjectIdentifier(serviceType), name: name)
  }

  /// The error for an argument-free request that matched nothing.
  @usableFromInline
  func missing(_ serviceType: any Any.Type, name: String?) -> ResolutionError {
    missing(ServiceKey(service: TypeIdentity(serviceType), name: name), passed: [])
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
