extension ServiceEntry {
  /// Adds a dispose hook: when a ``ServiceScope`` ends, `hook` is called
  /// with each instance the scope made of this registration, newest first
  /// (an instance before the ones it was made from); when
  /// ``Container/resetObjectScope(_:)-(ObjectScope)`` or
  /// ``Container/resetObjectScope(_:)-(CustomScope)`` drops an instance,
  /// with that instance. Close what the instance holds here: a
  /// transaction, a file, a connection borrowed from a pool.
  ///
  /// ```swift
  /// container.register(RequestLog.self) { _ in RequestLog() }
  ///   .inObjectScope(.scoped)
  ///   .onDispose { log in try log.flush() }
  /// ```
  ///
  /// Each instance is disposed once. A hook that throws does not keep the
  /// others from running: `scope.end()` throws every failure
  /// at the end, as a ``ScopeDisposalError`` naming the registration, its
  /// site and plugin. A synchronous hook cannot be interrupted, so it has
  /// no time limit. A second `onDispose` replaces the first.
  ///
  /// `.transient` and `.graph` instances belong to whoever resolved them,
  /// so their hooks never run (`check` warns of such a hook); a `.weak`
  /// instance's runs only when a reset drops it while it is still alive.
  /// The container does not dispose its `.container` instances when it
  /// goes: at the application's end, `try await container.dispose()`
  /// (``Container/dispose()``) does, or use lifecycle hooks (``onStop(_:)``).
  @discardableResult
  public func onDispose(_ hook: @escaping @Sendable (Service) throws -> Void) -> ServiceEntry<Service> {
    record.withMetadata {
      $0.dispose = .sync { instance in
        guard let service = instance as? Service else { return }
        try hook(service)
      }
    }
    return self
  }

  /// Adds an asynchronous dispose hook (see `onDispose`):
  /// `await scope.end()` awaits it, newest instance first, within the
  /// scope's time limit (``ServiceScope/disposeTimeout``: by default the
  /// container's, 30 s unless set, a deployment's `hookTimeout` in the host). A hook that does not return in time is
  /// cancelled (honour cancellation) and left behind, reported as timed
  /// out, and the next one runs.
  ///
  /// ```swift
  /// container.register(Transaction.self) { r in try Transaction(on: r.resolve()) }
  ///   .inObjectScope(.scoped)
  ///   .onDispose { transaction in try await transaction.commit() }
  /// ```
  ///
  /// A scope ended synchronously (`scope.end()` without `await`, or the
  /// synchronous `withScope`) cannot wait for it: it does not run it, and
  /// reports that it must be ended with `await`. A reset runs it in a task
  /// of its own, with the same limit, and logs its failure.
  @discardableResult
  public func onDispose(_ hook: @escaping @Sendable (Service) async throws -> Void) -> ServiceEntry<Service> {
    record.withMetadata {
      $0.dispose = .async { instance in
        guard let service = instance as? Service else { return }
        try await hook(service)
      }
    }
    return self
  }
}
