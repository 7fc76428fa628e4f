extension Container {
  /// Registers an `async` factory for `serviceType` under `name`: one that
  /// may `await`, to connect to a database say, or that is isolated to a
  /// global actor.
  ///
  /// ```swift
  /// container.register(Database.self) { _ in await Database.connect() }
  ///   .inObjectScope(.container)
  /// container.register(Repository.self) { r async throws in
  ///   Repository(database: try await r.resolve())
  /// }
  /// // A view model isolated to the main actor, non-Sendable or not:
  /// container.register(ProfileViewModel.self) { @MainActor r async throws in
  ///   ProfileViewModel(repository: try await r.resolve())
  /// }
  /// ```
  ///
  /// A closure is async when it says `async` or contains `await`; a plain
  /// synchronous closure still picks the synchronous `register`. An
  /// actor-isolated factory must say `async` (`{ @MainActor r async in … }`):
  /// resolving it hops to its actor, which only an `await` can do, and
  /// without `async` Swift picks the synchronous `register` and rejects the
  /// closure for losing its actor. A main-actor factory that awaits
  /// nothing can stay synchronous instead, resolved without `await` from
  /// main-actor code: ``register(_:name:on:file:line:factory:)``.
  ///
  /// Resolve it with `try await` (``AsyncResolver/resolve(_:name:)``, from
  /// the factory's resolver or ``Container/asyncResolver``); from a
  /// `@MainActor` caller the instance of a `@MainActor` factory stays on
  /// the main actor. A synchronous `resolve` of it throws
  /// ``ResolutionError/Kind/asyncRegistration``, and `plugboard check`
  /// reports a synchronous registration that declares a dependency on it.
  /// Every scope works (see ``AsyncResolver/resolve(_:name:)``); a custom
  /// scope keeps one instance as `.container` does, until it is reset.
  /// What the factory throws reaches the caller wrapped in a
  /// ``ResolutionError`` that names the chain.
  @discardableResult
  public func register<Service>(
    _ serviceType: Service.Type,
    name: String? = nil,
    file: String = #fileID,
    line: Int = #line,
    factory: @escaping @isolated(any) @Sendable (AsyncResolver) async throws -> sending Service
  ) -> ServiceEntry<Service> {
    register(
      serviceType, key: ServiceKey(service: TypeIdentity(serviceType), name: name), file: file, line: line,
      factory: factory)
  }

  /// The async registration under `key`, whose role may be a
  /// contribution's.
  func register<Service>(
    _ serviceType: Service.Type, key: ServiceKey, file: String, line: Int,
    factory: @escaping @isolated(any) @Sendable (AsyncResolver) async throws -> sending Service
  ) -> ServiceEntry<Service> {
    let record = AsyncPlainRecord(key: key, scope: defaultObjectScope, owner: self, factory: factory)
    add(record, file: file, line: line)
    return ServiceEntry(record: record, container: self)
  }

  /// Registers an `async` factory that takes one runtime argument after
  /// the resolver, as the synchronous `register` with arguments does (two
  /// and three arguments are overloads of this one):
  ///
  /// ```swift
  /// container.register(Session.self) { r, user async throws in
  ///   Session(user: user, database: try await r.resolve())
  /// }
  /// let session = try await container.asyncResolver.resolve(Session.self, arguments: "ada")
  /// ```
  ///
  /// Resolve it with ``AsyncResolver/resolve(_:name:arguments:)``; the
  /// arguments are matched by their types, in order, and sent into the
  /// factory's isolation. A synchronous `resolve(_:arguments:)` of it
  /// throws ``ResolutionError/Kind/asyncRegistration``. A `.container`
  /// registration keeps the instance made with the first arguments, as a
  /// synchronous one does.
  @discardableResult
  public func register<Service, A>(
    _ serviceType: Service.Type, name: String? = nil, file: String = #fileID, line: Int = #line,
    factory: @escaping @isolated(any) @Sendable (AsyncResolver, A) async throws -> sending Service
  ) -> ServiceEntry<Service> {
    register(
      serviceType, key: asyncKey(serviceType, name: name, arguments: [TypeIdentity(A.self)]), file: file,
      line: line, factory: factory)
  }

  /// The async registration with one runtime argument under `key`, whose
  /// role may be a decorator's.
  func register<Service, A>(
    _ serviceType: Service.Type, key: ServiceKey, file: String, line: Int,
    factory: @escaping @isolated(any) @Sendable (AsyncResolver, A) async throws -> sending Service
  ) -> ServiceEntry<Service> {
    let asyncFactory = AsyncArgumentFactory<Service, A>(isolation: factory.isolation) { r, a in
      try await factory(r, a)
    }
    let record = ArgumentRecord<Service, A>(
      key: key, scope: defaultObjectScope, owner: self,
      factory: { _, _ in throw AsyncRegistrationRequired() },
      asyncFactory: asyncFactory)
    add(record, file: file, line: line)
    return ServiceEntry(record: record, container: self)
  }

  /// ``register(_:name:file:line:factory:)-async-one`` with two runtime arguments.
  @discardableResult
  public func register<Service, A, B>(
    _ serviceType: Service.Type, name: String? = nil, file: String = #fileID, line: Int = #line,
    factory: @escaping @isolated(any) @Sendable (AsyncResolver, A, B) async throws -> sending Service
  ) -> ServiceEntry<Service> {
    let asyncFactory = AsyncArgumentFactory<Service, (A, B)>(isolation: factory.isolation) { r, arguments in
      let (a, b) = arguments
      return try await factory(r, a, b)
    }
    let record = ArgumentRecord<Service, A, B>(
      key: asyncKey(serviceType, name: name, arguments: [TypeIdentity(A.self), TypeIdentity(B.self)]),
      scope: defaultObjectScope, owner: self, factory: { _, _, _ in throw AsyncRegistrationRequired() },
      asyncFactory: asyncFactory)
    add(record, file: file, line: line)
    return ServiceEntry(record: record, container: self)
  }

  /// ``register(_:name:file:line:factory:)-async-one`` with three runtime arguments.
  @discardableResult
  public func register<Service, A, B, C>(
    _ serviceType: Service.Type, name: String? = nil, file: String = #fileID, line: Int = #line,
    factory: @escaping @isolated(any) @Sendable (AsyncResolver, A, B, C) async throws -> sending Service
  ) -> ServiceEntry<Service> {
    let asyncFactory = AsyncArgumentFactory<Service, (A, B, C)>(isolation: factory.isolation) {
      r, arguments in
      let (a, b, c) = arguments
      return try await factory(r, a, b, c)
    }
    let types = [TypeIdentity(A.self), TypeIdentity(B.self), TypeIdentity(C.self)]
    let record = ArgumentRecord<Service, A, B, C>(
      key: asyncKey(serviceType, name: name, arguments: types), scope: defaultObjectScope, owner: self,
      factory: { _, _, _, _ in throw AsyncRegistrationRequired() }, asyncFactory: asyncFactory)
    add(record, file: file, line: line)
    return ServiceEntry(record: record, container: self)
  }

  private func asyncKey(_ serviceType: any Any.Type, name: String?, arguments: [TypeIdentity])
    -> ServiceKey
  {
    ServiceKey(service: TypeIdentity(serviceType), name: name, arguments: arguments)
  }
}
