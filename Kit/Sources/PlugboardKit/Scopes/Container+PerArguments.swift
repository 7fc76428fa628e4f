extension Container {
  /// Registers a factory with runtime arguments whose instances are kept
  /// one per distinct arguments: the same arguments get the same instance,
  /// other arguments another. Factory's `scopeOnParameters`, and what
  /// .NET's keyed singletons are used for: one `ChatRoom` per room id.
  ///
  /// ```swift
  /// container.registerPerArguments(ChatRoom.self) { (r, roomID: String) in
  ///   ChatRoom(id: roomID, hub: try r.resolve())
  /// }
  /// .onDispose { room in room.close() }
  /// let lobby = try container.resolve(ChatRoom.self, argument: "lobby")
  /// try container.resolve(ChatRoom.self, argument: "lobby") === lobby  // true
  /// try container.resolve(ChatRoom.self, argument: "games") === lobby  // false
  /// ```
  ///
  /// Every argument type must be `Hashable`, since the arguments are the
  /// key: a type that is not is refused at compile time ("requires that
  /// 'Socket' conform to 'Hashable'"); pass its identifier instead. Keys
  /// are hashed and compared from any thread, so pass values whose
  /// `Hashable` conformance is not isolated to an actor (which is what
  /// `SendableMetatype` asks). A plain `register` of a `.container`
  /// factory with arguments keeps the first arguments' instance for every
  /// later request, as Swinject does.
  ///
  /// The registration is `.container`: each instance is made exactly once
  /// per arguments, however many threads ask at once, resolves its
  /// dependencies in the container that registered it, and is kept until
  /// ``resetObjectScope(_:)-(ObjectScope)`` with `.container` or
  /// ``dispose()``, which hand each instance to `onDispose`, newest first.
  /// `.inObjectScope(session)` with a ``CustomScope`` keeps them until that
  /// scope's reset instead (strongly, whatever the scope's storage). Any
  /// other scope set afterwards (`.transient`, `.graph`, `.weak`,
  /// `.scoped`) keeps nothing per arguments: the registration then behaves
  /// as a plain one with arguments in that scope.
  ///
  /// Every instance lives as long as its scope does, so a key space
  /// without bound (a request id) grows without bound: key by what is
  /// long-lived, or reset the scope.
  @discardableResult
  public func registerPerArguments<
    Service, First: Hashable & SendableMetatype, each Rest: Hashable & SendableMetatype
  >(
    _ serviceType: Service.Type,
    name: String? = nil,
    file: String = #fileID,
    line: Int = #line,
    factory: @escaping @Sendable (Resolver, First, repeat each Rest) throws -> Service
  ) -> ServiceEntry<Service> {
    let instances = ArgumentInstances()
    // Reached by whichever resolve calls the record's factory, an old
    // plugin's inlined one included: the wrapper keeps the instances.
    @Sendable func keeping(_ resolver: Resolver, _ first: First, _ rest: repeat each Rest) throws
      -> Service
    {
      var key: ArgumentInstances.Key = [AnyHashable(first)]
      repeat key.append(AnyHashable(each rest))
      return try resolver.instance(perArguments: key, in: instances, of: Service.self) {
        try factory(resolver, first, repeat each rest)
      }
    }
    let entry = register(serviceType, name: name, file: file, line: line, factory: keeping)
    entry.record.withMetadata { $0.argumentInstances = instances }
    return entry.inObjectScope(.container)
  }

  /// The instance `key` has in `instances`, made with `make` and
  /// decorated exactly once across threads when it has none; `make`
  /// itself when the registration is in a scope that keeps nothing
  /// (``registerPerArguments(_:name:file:line:factory:)``).
  ///
  /// Called by the registration's factory, so the record is the newest
  /// link of the calling thread's chain: the general path entered it. The
  /// record's decorators apply here, before the instance is kept (the
  /// general path leaves them to this step, see ``decoratesOutsideFactory``):
  /// what is kept, served again and disposed is the decorated instance.
  func instance<Service>(
    perArguments key: ArgumentInstances.Key, in instances: ArgumentInstances, of _: Service.Type,
    make: () throws -> Service
  ) throws -> Service {
    try ResolutionContext.withCurrent { context in
      guard let record = context.frames.last?.record, record.keepsPerArguments(instances) else {
        return try make()
      }
      let slot = instances.slot(for: key)
      return try withUnsafeTemporaryAllocation(of: Service.self, capacity: 1) { buffer in
        let out = UnsafeMutableRawPointer(buffer.baseAddress.unsafelyUnwrapped)
        var home = ArgumentSlotHome(record: record, instances: instances, slot: slot)
        let slots = decoratorSlots(of: record)
        try makeOnce(&home, in: context, into: out) {
          out.assumingMemoryBound(to: Service.self).initialize(to: try make())
          for decorator in slots {
            try decorator.applier.apply(decorator.role, from: self, at: out)
          }
        }
        return out.assumingMemoryBound(to: Service.self).move()
      }
    }
  }
}

extension RegistrationRecord {
  /// The instances kept per arguments, for a registration made with
  /// ``Container/registerPerArguments(_:name:file:line:factory:)``.
  var argumentInstances: ArgumentInstances? {
    guard !key.arguments.isEmpty else { return nil }
    return readingMetadata { $0.argumentInstances }
  }

  /// Whether `instances` are this registration's and its scope keeps
  /// them: `.container` or a custom scope.
  func keepsPerArguments(_ instances: ArgumentInstances) -> Bool {
    scope == .container && argumentInstances === instances
  }

  /// Whether the general path applies the record's decorators to what its
  /// factory returns: not for a registration that keeps instances per
  /// arguments, whose factory returns the kept instance, decorated
  /// already (``Container/instance(perArguments:in:of:make:)``).
  var decoratesOutsideFactory: Bool {
    scope != .container || argumentInstances == nil
  }
}

/// The instance of a ``Container/registerPerArguments(_:name:file:line:factory:)``
/// registration for one set of arguments: in its slot of the
/// registration's ``ArgumentInstances``, made once per slot.
struct ArgumentSlotHome: InstanceHome {
  let record: RegistrationRecord
  let instances: ArgumentInstances
  let slot: ArgumentInstances.Slot

  var cell: ObjectIdentifier { ObjectIdentifier(slot) }

  func kept() -> Any? { instances.instance(in: slot) }

  func initialize(_ out: UnsafeMutableRawPointer, from kept: Any) -> Bool {
    record.initialize(out, fromBoxed: kept)
  }

  func keep(_ out: UnsafeMutableRawPointer) -> Any? {
    instances.keep(record.boxed(out), in: slot)
  }
}
