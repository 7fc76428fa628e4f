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
  /// closure for losing its actor.
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
    let record = AsyncRecord(
      key: ServiceKey(service: TypeIdentity(serviceType), name: name), scope: defaultObjectScope,
      owner: self, factory: factory)
    add(record, file: file, line: line)
    return ServiceEntry(record: record, container: self)
  }
}
