extension Container {
  /// Ends this container's singletons, as a scope's end ends its
  /// instances: every instance its own `.container` and custom-scoped
  /// registrations hold (not its parent's) is dropped and handed to its
  /// dispose hook (`onDispose`), newest first, each async one awaited
  /// within ``disposeTimeout``. For an application that owns its
  /// container and must close what the singletons hold (a database pool,
  /// a log file) when it ends.
  ///
  /// ```swift
  /// let container = Container()
  /// container.register(Database.self) { _ in try Database.open() }
  ///   .inObjectScope(.container)
  ///   .onDispose { database in try await database.close() }
  /// defer { Task { try? await container.dispose() } }
  /// // …
  /// try await container.dispose()
  /// ```
  ///
  /// The next request makes a new instance, as after
  /// ``resetObjectScope(_:)-(ObjectScope)``; the container stays usable.
  /// Every hook runs, even when the calling task is cancelled.
  /// - Throws: ``ScopeDisposalError`` when a hook failed or timed out,
  ///   once every hook has had its turn.
  public func dispose() async throws(ScopeDisposalError) {
    let dropped = droppedInstances(inParents: false) { record in
      guard record.scope == .container else { return [] }
      return record.dropKeptInstances()
    }
    let (hooks, failures) = await Disposal.run(dropped, limit: disposeTimeout)
    if !failures.isEmpty { throw ScopeDisposalError(failures: failures, hooks: hooks) }
  }
}
