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
  /// The container resolved from; use it for `resolve` with runtime
  /// arguments, wrappers and contributions, which are synchronous.
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
    try await container.resolveAwaiting(serviceType, name: name)
  }

  /// The instance, or `nil` only when nothing is registered for the type
  /// and name; a registration that exists but fails still throws.
  nonisolated(nonsending) public func resolveIfRegistered<Service>(
    _ serviceType: Service.Type = Service.self, name: String? = nil
  ) async throws -> Service? {
    guard container.isServed(serviceType, name: name) else { return nil }
    return try await container.resolveAwaiting(serviceType, name: name)
  }
}

extension Container {
  /// This container as an ``AsyncResolver``, for async code that resolves
  /// from it: `try await container.asyncResolver.resolve(ViewModel.self)`.
  public var asyncResolver: AsyncResolver { AsyncResolver(self) }
}
