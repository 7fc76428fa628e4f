extension ServiceEntry {
  /// Adds a handler that runs right after an instance is made, as
  /// Swinject's `initCompleted`: property or method injection, typically of
  /// a back-reference that could not be passed to the initializer.
  ///
  /// Handlers run in the order added, in the same resolution as the
  /// construction, after the instance is stored in its scope: a `.graph`
  /// child that resolves its parent in a handler gets the parent being
  /// resolved, and the parent gets the child. A handler may throw; the
  /// error fails the resolution with this registration's chain. An
  /// instance found in its scope (made earlier) does not run them again.
  /// As in Swinject, a `.container` instance is visible to other threads
  /// from the moment it is stored, while its handlers may still be running.
  /// A `.transient` registration re-entered from a handler is still a
  /// cycle (each entry would make a new instance), and a `.container` one
  /// whose factory is still running when a handler asks for it is too.
  /// Declare what the handler resolves with
  /// ``initCompleted(resolving:handler:)`` so that `plugboard check` sees it.
  @discardableResult
  public func initCompleted(
    _ handler: @escaping @Sendable (Resolver, Service) throws -> Void
  ) -> ServiceEntry<Service> {
    record.withMetadata { metadata in
      metadata.initCompleted.append { resolver, instance in
        try handler(resolver, instance.assumingMemoryBound(to: Service.self).pointee)
      }
    }
    record.hasInitCompleted.store(true, ordering: .relaxed)
    return self
  }

  /// ``initCompleted(_:)`` declaring the (unnamed) services the handler
  /// resolves: `plugboard check` requires them to be registered, but a
  /// cycle through them is not an error, since they are resolved after
  /// construction.
  @discardableResult
  public func initCompleted(
    resolving types: any Any.Type...,
    handler: @escaping @Sendable (Resolver, Service) throws -> Void
  ) -> ServiceEntry<Service> {
    record.declare(
      types.map { type in
        switch DeclaredDependency.of(type) {
        case .required(let key), .optional(let key):
          .deferred(DeferredDependency(key: key, kind: .afterInit))
        case .deferred(let deferred): .deferred(deferred)
        }
      })
    return initCompleted(handler)
  }
}
