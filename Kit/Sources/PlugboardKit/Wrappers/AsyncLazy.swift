/// ``Lazy`` for async code: a dependency resolved by an async resolve on
/// first use and kept, so it may be an async registration. Read it with
/// `try await lazy.instance`.
///
/// ```swift
/// container.register(Report.self) { r async throws in
///   Report(database: try await r.resolve(AsyncLazy<Database>.self))
/// }
/// let database = try await report.database.instance
/// ```
///
/// `plugboard check` sees it as it sees a `Lazy`: required, not in a
/// cycle. A synchronous `Lazy` of an async registration throws
/// ``ResolutionError/Kind/asyncRegistration`` when read, naming this form.
public final class AsyncLazy<Service>: @unchecked Sendable {
  // Called only through `state`'s discipline below, as `Lazy`'s `make`.
  private let make: AsyncDeferral<Service>
  private let state = Protected<Service?>(nil)

  init(make: AsyncDeferral<Service>) {
    self.make = make
  }

  /// The service, resolved on the first read (awaited); later reads return
  /// the same instance. Concurrent first reads may each resolve, and all
  /// of them return the one stored first.
  /// - Throws: ``ResolutionError`` when resolving fails (nothing kept, so a
  ///   later read tries again).
  nonisolated(nonsending) public var instance: Service {
    get async throws {
      if let made = state.withLock({ $0 }) { return made }
      let made = try await make.resolve()
      return state.withLock { stored in
        if let stored { return stored }
        stored = made
        return made
      }
    }
  }
}

extension AsyncLazy: AsyncDeferringWrapper {
  static var kind: DeferredDependency.Kind { .lazy }
}

/// ``Provider`` for async code: a dependency resolved again, awaited, on
/// every read of `try await provider.instance`, so it may be an async
/// registration. `plugboard check` treats it as a ``Provider``.
public final class AsyncProvider<Service>: @unchecked Sendable {
  // Immutable.
  private let make: AsyncDeferral<Service>

  init(make: AsyncDeferral<Service>) {
    self.make = make
  }

  /// A freshly resolved instance, following the service's scope.
  /// - Throws: ``ResolutionError`` when resolving fails.
  nonisolated(nonsending) public var instance: Service {
    get async throws { try await make.resolve() }
  }
}

extension AsyncProvider: AsyncDeferringWrapper {
  static var kind: DeferredDependency.Kind { .provider }
}
