/// The handle `register` returns, for configuring the registration further.
///
/// ```swift
/// container.register((any APIClient).self) { r in
///   RemoteAPIClient(session: try r.resolve(Session.self))
/// }
/// .inObjectScope(.container)
/// .dependsOn(Session.self)
/// .inProfiles("!mock")
/// ```
///
/// Configure while assembling; the settings take effect for resolutions that
/// start after they are made.
@frozen public struct ServiceEntry<Service>: Sendable {
  @usableFromInline let record: RegistrationRecord
  /// Held strongly, unlike the record's own unretained pointer to it, so
  /// configuring an entry never touches a container that is gone.
  @usableFromInline let container: Container

  @inlinable
  init(record: RegistrationRecord, container: Container) {
    self.record = record
    self.container = container
  }

  /// Sets how long instances live and who shares them.
  @discardableResult
  public func inObjectScope(_ scope: ObjectScope) -> ServiceEntry<Service> {
    record.scope = scope
    record.passScopeToForwarders()
    return self
  }

  /// Puts the registration in a scope of your own (a session, say): one
  /// instance per container, shared until
  /// ``Container/resetObjectScope(_:)`` resets the scope.
  @discardableResult
  public func inObjectScope(_ scope: CustomScope) -> ServiceEntry<Service> {
    record.customScope = scope
    record.passScopeToForwarders()
    return self
  }

  /// Declares the services the factory resolves, so that whole-graph checks
  /// (`plugboard check`) can see the edge without running the factory.
  @discardableResult
  public func dependsOn(_ keys: ServiceKey...) -> ServiceEntry<Service> {
    declare(keys)
  }

  /// Declares that the factory resolves nothing, so checks know the
  /// registration is a leaf rather than undeclared.
  @discardableResult
  public func dependsOn() -> ServiceEntry<Service> {
    declare([])
  }

  /// Declares dependency types (unnamed), as ``dependsOn(_:)-(ServiceKey...)``.
  /// `Lazy<T>` and `Provider<T>` declare a deferred edge to `T` (required,
  /// but not part of a cycle); `T?` declares an optional one.
  @discardableResult
  public func dependsOn(_ types: any Any.Type...) -> ServiceEntry<Service> {
    record.declare(types.map { DeclaredDependency.of($0) })
    return self
  }

  /// Adds `keys` to the declared dependencies, which become known (not
  /// `nil`) even when `keys` is empty.
  private func declare(_ keys: [ServiceKey]) -> ServiceEntry<Service> {
    record.withMetadata { $0.dependencies = ($0.dependencies ?? []) + keys }
    return self
  }

  /// Declares services the factory uses only when they are registered
  /// (resolved with `resolveIfRegistered`), so checks know the edge exists
  /// but do not report it missing.
  @discardableResult
  public func optionallyDependsOn(_ types: any Any.Type...) -> ServiceEntry<Service> {
    let keys = types.map { ServiceKey($0) }
    record.withMetadata { $0.optionalDependencies += keys }
    return self
  }

  /// Limits the registration to profiles, as Spring's `@Profile`: each
  /// expression is a profile name, or `!name` for every profile but that
  /// one; the registration takes part when any expression matches the
  /// container's ``Container/activeProfile``. `inProfiles("mock")` ships a
  /// mock beside the real service; `inProfiles("!live")` serves everything
  /// but production.
  @discardableResult
  public func inProfiles(_ expressions: String...) -> ServiceEntry<Service> {
    record.withMetadata { $0.profiles = ProfileCondition(expressions) }
    record.hasProfiles.store(true, ordering: .relaxed)
    container.invalidate()
    return self
  }

  /// Makes this registration a default that any other registration of
  /// the same key replaces, made before it or after: a plugin provides a
  /// service another plugin may provide better, whatever the order the
  /// manifest loads them in (MS.DI's `TryAdd`, Spring's
  /// `@ConditionalOnMissingBean`).
  ///
  /// ```swift
  /// container.register((any Logger).self) { _ in PrintLogger() }.asFallback()
  /// // in another plugin, loaded before or after:
  /// container.register((any Logger).self) { _ in JournalLogger() }  // wins
  /// ```
  ///
  /// Being replaced is what a fallback is for, so `check` reports no
  /// duplicate registration for it; two fallbacks of one key are
  /// duplicates as usual (the later wins).
  ///
  /// The types it is forwarded as (``implements(_:name:file:line:)``,
  /// ``Container/forward(_:name:to:file:line:)``, written before this call
  /// or after it) are fallbacks too: another registration of a forwarded
  /// type replaces that forwarding, in whichever order the two are made,
  /// and `check` reports no duplicate for it. Requests for the fallback's
  /// own key still reach it when another plugin serves only a forwarded
  /// type:
  ///
  /// ```swift
  /// container.register(PrintLogger.self) { _ in PrintLogger() }
  ///   .asFallback()
  ///   .implements((any Logger).self)
  /// // another plugin's (any Logger) wins; PrintLogger.self still resolves
  /// ```
  @discardableResult
  public func asFallback() -> ServiceEntry<Service> {
    // Its forwarded types too (``implements(_:name:file:line:)``, before
    // or after this call): they stand in for it.
    for marked in [record] + container.forwarders(of: record.key) {
      marked.withMetadata { $0.isFallback = true }
      // The flag that makes table rebuilds read a registration's details.
      marked.hasProfiles.store(true, ordering: .relaxed)
    }
    container.invalidateForFallback()
    return self
  }

  /// The key this entry registered.
  public var key: ServiceKey { record.key }
  /// The scope currently set (`.container` for a custom scope).
  public var objectScope: ObjectScope { record.scope }
  /// The custom scope currently set, if any.
  public var customObjectScope: CustomScope? { record.customScope }
  /// Where the registration was made.
  public var site: RegistrationSite { record.site }
}
