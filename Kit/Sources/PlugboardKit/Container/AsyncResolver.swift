/// What async factories receive to resolve their dependencies, and how
/// async code resolves anything: `try await resolver.resolve(...)`.
///
/// ```swift
/// container.register(Database.self) { _ in await Database.connect() }
///   .inObjectScope(.container)
/// container.register(UserStore.self) { r async throws in
///   UserStore(database: try await r.resolve())
/// }
/// let store = try await container.asyncResolver.resolve(UserStore.self)
/// ```
///
/// It resolves every registration, async or not, so async code can always
/// await; a synchronous registration is made synchronously on the way.
/// It is a type of its own, rather than an `async` overload of
/// ``Container/resolve(_:name:)``, because Swift prefers an `async`
/// overload in async code and would make every existing `try
/// container.resolve(...)` there an error for its missing `await`.
///
/// `resolve` runs in the caller's isolation (it is `nonisolated(nonsending)`),
/// so a non-`Sendable` instance, such as a view model made by a
/// `@MainActor` factory, reaches a `@MainActor` caller without crossing
/// an isolation boundary.
public struct AsyncResolver: Sendable {
  /// The container resolved from, for its synchronous API.
  public let container: Container

  /// Wraps `container`; ``Container/asyncResolver`` is the usual spelling.
  public init(_ container: Container) {
    self.container = container
  }

  /// The instance registered for `serviceType` under `name`, made by its
  /// async factory (awaited) or its synchronous one.
  ///
  /// `let database: Database = try await r.resolve()` infers the type.
  /// Scopes work as for synchronous registrations: a `.graph` instance is
  /// shared within one top-level `await` of this method, and a
  /// `.container` instance is made exactly once however many tasks ask at
  /// once (the others suspend until it exists; if its factory throws, the
  /// next one tries again).
  /// - Throws: ``ResolutionError`` as a synchronous resolve does, carrying
  ///   the chain through async and synchronous registrations alike; a
  ///   cycle among async registrations, across tasks too, is a `cycle`
  ///   error rather than a hang.
  nonisolated(nonsending) public func resolve<Service>(
    _ serviceType: Service.Type = Service.self, name: String? = nil
  )
    async throws -> Service
  {
    try await container.resolveAsync(serviceType, name: name)
  }

  /// The instance registered for `serviceType` under `name` with a
  /// runtime argument of this type: an async registration's
  /// (`{ r, user async throws in … }`) made by awaiting its factory with
  /// it, a synchronous one's as ``Container/resolve(_:name:arguments:_:)``
  /// makes it. Two and three arguments are overloads of this one.
  ///
  /// ```swift
  /// let session = try await r.resolve(Session.self, arguments: "ada")
  /// ```
  /// - Throws: ``ResolutionError``; `argumentsMismatch` when the service is
  ///   registered with other argument types.
  nonisolated(nonsending) public func resolve<Service, A>(
    _ serviceType: Service.Type = Service.self, name: String? = nil, arguments a: sending A
  ) async throws -> Service {
    let ids = [ObjectIdentifier(A.self)]
    guard
      let record = container.asyncArgumentRecord(
        serviceType, name: name, arguments: ids, as: ArgumentRecord<Service, A>.self),
      let factory = record.asyncFactory as? AsyncArgumentFactory<Service, A>
    else {
      return try container.resolvingSynchronously {
        try container.resolve(serviceType, name: name, arguments: a)
      }
    }
    return try await container.resolveAsync(record, factory: factory, arguments: a)
  }

  /// ``resolve(_:name:arguments:)`` with two runtime arguments.
  nonisolated(nonsending) public func resolve<Service, A, B>(
    _ serviceType: Service.Type = Service.self, name: String? = nil, arguments a: sending A, _ b: sending B
  ) async throws -> Service {
    let ids = [ObjectIdentifier(A.self), ObjectIdentifier(B.self)]
    guard
      let record = container.asyncArgumentRecord(
        serviceType, name: name, arguments: ids, as: ArgumentRecord<Service, A, B>.self),
      let factory = record.asyncFactory as? AsyncArgumentFactory<Service, (A, B)>
    else {
      return try container.resolvingSynchronously {
        try container.resolve(serviceType, name: name, arguments: a, b)
      }
    }
    return try await container.resolveAsync(record, factory: factory, arguments: (a, b))
  }

  /// ``resolve(_:name:arguments:)`` with three runtime arguments.
  nonisolated(nonsending) public func resolve<Service, A, B, C>(
    _ serviceType: Service.Type = Service.self, name: String? = nil, arguments a: sending A, _ b: sending B,
    _ c: sending C
  ) async throws -> Service {
    let ids = [ObjectIdentifier(A.self), ObjectIdentifier(B.self), ObjectIdentifier(C.self)]
    guard
      let record = container.asyncArgumentRecord(
        serviceType, name: name, arguments: ids, as: ArgumentRecord<Service, A, B, C>.self),
      let factory = record.asyncFactory as? AsyncArgumentFactory<Service, (A, B, C)>
    else {
      return try container.resolvingSynchronously {
        try container.resolve(serviceType, name: name, arguments: a, b, c)
      }
    }
    return try await container.resolveAsync(record, factory: factory, arguments: (a, b, c))
  }

  /// The instance, or `nil` only when nothing is registered for the type
  /// and name; a registration that exists but fails still throws.
  nonisolated(nonsending) public func resolveIfRegistered<Service>(
    _ serviceType: Service.Type = Service.self, name: String? = nil
  ) async throws -> Service? {
    guard container.isServed(serviceType, name: name) else { return nil }
    return try await container.resolveAsync(serviceType, name: name)
  }

  /// Every contribution to `serviceType`, in their documented order (see
  /// ``Container/resolveAll(_:)``), async ones awaited in their place.
  ///
  /// ```swift
  /// for check in try await container.asyncResolver.resolveAll(HealthCheck.self) { … }
  /// ```
  /// - Throws: ``ResolutionError`` of the first contribution that fails;
  ///   the later ones are not made.
  nonisolated(nonsending) public func resolveAll<Service>(_ serviceType: Service.Type = Service.self)
    async throws -> [Service]
  {
    var all: [Service] = []
    try await container.forEachContributionAsync(serviceType) { _, instance in all.append(instance) }
    return all
  }

  /// The named contributions to `serviceType`, by name, async ones
  /// awaited, as ``Container/resolveAllNamed(_:)`` chooses them.
  nonisolated(nonsending) public func resolveAllNamed<Service>(_ serviceType: Service.Type = Service.self)
    async throws -> [String: Service]
  {
    var named: [String: Service] = [:]
    try await container.forEachContributionAsync(serviceType) { name, instance in
      if let name { named[name] = instance }
    }
    return named
  }
}

extension Container {
  /// This container as an ``AsyncResolver``, for async code that resolves
  /// from it: `try await container.asyncResolver.resolve(ViewModel.self)`.
  public var asyncResolver: AsyncResolver { AsyncResolver(self) }
}
