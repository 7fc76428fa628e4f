extension Container {
  /// Adds a contribution to `serviceType` whose factory is `async`, as
  /// ``contribute(_:name:order:file:line:factory:)`` does for a synchronous
  /// one: it takes its place by `order` among the others.
  ///
  /// ```swift
  /// container.contribute(HealthCheck.self, name: "database") { r async throws in
  ///   DatabaseCheck(database: try await r.resolve())
  /// }
  /// let checks = try await container.asyncResolver.resolveAll(HealthCheck.self)
  /// ```
  ///
  /// Only the async forms make it: ``AsyncResolver/resolveAll(_:)``,
  /// ``AsyncResolver/resolveAllNamed(_:)`` and an async
  /// `resolve(Contributions<T>.self)`. A synchronous `resolveAll` or
  /// `Contributions<T>` of the extension point throws
  /// ``ResolutionError/Kind/asyncRegistration`` naming the async one.
  @discardableResult
  public func contribute<Service>(
    _ serviceType: Service.Type,
    name: String? = nil,
    order: Int = 0,
    file: String = #fileID,
    line: Int = #line,
    factory: @escaping @isolated(any) @Sendable (AsyncResolver) async throws -> sending Service
  ) -> ServiceEntry<Service> {
    contributing(serviceType, name: name, order: order) { key in
      register(serviceType, key: key, file: file, line: line, factory: factory)
    }
  }

  /// Each contribution to `Service` taking part, in order, made by the
  /// async resolve (async ones awaited, the others made synchronously)
  /// and handed to `body` with its contribution name.
  nonisolated(nonsending) func forEachContributionAsync<Service>(
    _ serviceType: Service.Type, _ body: (String?, Service) throws -> Void
  ) async throws {
    let takingPart = contributionsTakingPart(for: ObjectIdentifier(serviceType))
    for (slot, name) in zip(takingPart.slots, takingPart.names) {
      let found = Unmanaged<RegistrationRecord>.fromOpaque(slot.pointee.record)
      try body(name, try await resolveAsync(serviceType, found, request: .record(found)))
    }
  }
}
