extension Container {
  /// Registers a synchronous factory isolated to the main actor, for
  /// `serviceType` under `name`: a view model, or anything else whose
  /// initializer is `@MainActor`, resolved from main-actor code with a
  /// plain `try container.resolve(...)` and no `await`.
  ///
  /// ```swift
  /// @MainActor final class ProfileViewModel {
  ///   init(repository: Repository) { … }
  /// }
  /// container.register(ProfileViewModel.self, on: MainActor.self) { r in
  ///   ProfileViewModel(repository: try r.resolve())
  /// }
  /// // In a @MainActor view or coordinator:
  /// let model = try container.resolve(ProfileViewModel.self)
  /// ```
  ///
  /// The plain `register` cannot take this closure: its factory is not
  /// isolated, so Swift rejects the call to a `@MainActor` initializer
  /// in it. `on: MainActor.self` makes the closure `@MainActor`.
  ///
  /// A synchronous `resolve` runs the factory only on the main actor. From
  /// any other thread it throws ``ResolutionError/Kind/mainActorIsolated``
  /// without running it, and without handing out an instance its scope
  /// kept (a `.container` one included), whatever ran first. Async code
  /// resolves it with `try await` (``AsyncResolver/resolve(_:name:)``),
  /// which runs the synchronous resolve on the main actor; a `@MainActor`
  /// caller gets it without leaving the actor. (A non-`Sendable` service
  /// awaited from elsewhere leaves the main actor with it: await such a
  /// service from `@MainActor` code.) `plugboard check` reports a
  /// registration that is neither isolated to the main actor nor async and
  /// declares a dependency on this one (`dependsOn`, a `Lazy` or a
  /// `Provider`), since its factory resolves it synchronously from
  /// wherever it is itself resolved.
  ///
  /// Scopes, `initCompleted`, `implements` and `onDispose` work as for any
  /// registration; a type forwarded to it is isolated to the main actor
  /// too. Dependencies the factory resolves are resolved on the main
  /// actor. What the factory throws reaches the caller wrapped in a
  /// ``ResolutionError`` that names the chain.
  @discardableResult
  public func register<Service>(
    _ serviceType: Service.Type,
    name: String? = nil,
    on actor: MainActor.Type,
    file: String = #fileID,
    line: Int = #line,
    factory: @escaping @MainActor @Sendable (Resolver) throws -> Service
  ) -> ServiceEntry<Service> {
    let record = MainActorRecord(
      key: ServiceKey(service: TypeIdentity(serviceType), name: name), scope: defaultObjectScope,
      owner: self, factory: factory)
    add(record, file: file, line: line)
    return ServiceEntry(record: record, container: self)
  }
}
