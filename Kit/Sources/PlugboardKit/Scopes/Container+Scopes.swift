extension Container {
  /// A new scope under this container, for one unit of work: `.scoped`
  /// registrations are made once in it, and disposed when it ends (see
  /// ``ServiceScope``). End it with `scope.end()` or `await scope.end()`;
  /// ``withScope(_:)-(_)`` does that for you.
  ///
  /// ```swift
  /// let scope = container.makeScope()
  /// defer { try? scope.end() }
  /// let unitOfWork = try scope.resolve(UnitOfWork.self)
  /// ```
  ///
  /// `disposeTimeout` limits each async dispose hook; `nil` takes the
  /// container's ``disposeTimeout`` (30 s unless set: in a deployment,
  /// the manifest's `hookTimeout`). A scope that is never ended keeps its
  /// instances until it goes, and never runs their hooks.
  public func makeScope(disposeTimeout: Duration? = nil) -> ServiceScope {
    ServiceScope(parent: self, disposeTimeout: disposeTimeout ?? self.disposeTimeout)
  }

  /// How long each async dispose hook of this container's scopes, and of
  /// its resets, may take, unless a scope sets its own
  /// (``makeScope(disposeTimeout:)``): the value set here, else the
  /// parent's, else ``ServiceScope/defaultDisposeTimeout`` (30 s). The
  /// host sets a deployment's container to the manifest's `hookTimeout`,
  /// so dispose hooks follow the rule lifecycle hooks follow.
  ///
  /// ```swift
  /// container.disposeTimeout = .seconds(5)
  /// let scope = container.makeScope()  // scope.disposeTimeout == .seconds(5)
  /// ```
  public var disposeTimeout: Duration {
    get {
      state.withLock { $0.disposeTimeout } ?? parent?.disposeTimeout ?? ServiceScope.defaultDisposeTimeout
    }
    set { state.withLock { $0.disposeTimeout = newValue } }
  }

  /// Runs `body` in a new scope and ends the scope when `body` returns or
  /// throws, disposing its instances (synchronous hooks only; see
  /// `ServiceScope.end()`).
  ///
  /// ```swift
  /// let report = try container.withScope { scope in
  ///   try scope.resolve(ReportBuilder.self).build()
  /// }
  /// ```
  ///
  /// - Throws: what `body` throws, unchanged; otherwise a
  ///   ``ScopeDisposalError`` when a dispose hook failed. When both fail,
  ///   `body`'s error is thrown and the disposal failures are written to
  ///   the container's ``Logger`` (standard error when none is
  ///   registered), so that neither is lost.
  ///
  /// Disfavoured, so that async code gets the async variant (which awaits
  /// async dispose hooks) even when its body does not await.
  @_disfavoredOverload
  public func withScope<Result>(_ body: (ServiceScope) throws -> Result) throws -> Result {
    let scope = makeScope()
    let result: Result
    do {
      result = try body(scope)
    } catch {
      do { try scope.end() } catch let disposal { Disposal.report(disposal.failures, in: self) }
      throw error
    }
    try scope.end()
    return result
  }

  /// ``withScope(_:)-(_)`` for an asynchronous `body`: the scope ends with
  /// `await scope.end()`, so async dispose hooks run, each within
  /// `disposeTimeout` (the container's ``disposeTimeout`` when `nil`).
  public func withScope<Result>(
    disposeTimeout: Duration? = nil,
    isolation: isolated (any Actor)? = #isolation, _ body: (ServiceScope) async throws -> Result
  ) async throws -> Result {
    let scope = makeScope(disposeTimeout: disposeTimeout)
    let result: Result
    do {
      result = try await body(scope)
    } catch {
      do { try await scope.end() } catch let disposal { Disposal.report(disposal.failures, in: self) }
      throw error
    }
    try await scope.end()
    return result
  }

  /// The storage of the scope this container resolves in: its own, or its
  /// nearest parent's (a container made under a scope, as `withOverrides`
  /// makes one); `nil` outside any scope.
  var enclosingScope: ScopeStorage? {
    var next: Container? = self
    while let container = next {
      if let storage = container.scopeStorage { return storage }
      next = container.parent
    }
    return nil
  }

  /// The `.scoped` case of making an instance: once per scope, kept in
  /// the scope's storage in the order made, so that its end disposes them
  /// newest first. The factory resolves in the scope (`self`), unlike a
  /// `.container` one, so a `.scoped` service's `.scoped` dependencies are
  /// the same scope's.
  func makePerScope(
    _ record: RegistrationRecord, in context: ResolutionContext, into out: UnsafeMutableRawPointer,
    produce: (Resolver, UnsafeMutableRawPointer) throws -> Void
  ) throws {
    guard let storage = enclosingScope else { throw outsideScope(record, ended: false, in: context) }
    var home = ServiceScopeHome(record: record, storage: storage, container: self, context: context)
    try makeOnce(&home, in: context, into: out) {
      try call(record, in: context) { try produce(self, out) }
    }
  }

  fileprivate func outsideScope(
    _ record: RegistrationRecord, ended: Bool, in context: ResolutionContext
  ) -> ResolutionError {
    ResolutionError(
      kind: .outsideScope(scopeEnded: ended), key: record.key, chain: context.links,
      registries: registries)
  }
}

/// The instance of a `.scoped` registration in one ``ServiceScope``: in
/// the scope's storage, made under the scope's own coordinator, and
/// counted in while it is made, so that an ending scope waits to dispose
/// it.
struct ServiceScopeHome: InstanceHome {
  let record: RegistrationRecord
  let storage: ScopeStorage
  /// Where the request came from, for the error when the scope ended
  /// before the construction began.
  let container: Container
  let context: ResolutionContext

  var coordinator: ConstructionCoordinator { storage.coordinator }

  func kept() -> Any? { storage.instance(of: record) }

  func initialize(_ out: UnsafeMutableRawPointer, from kept: Any) -> Bool {
    record.initialize(out, fromBoxed: kept)
  }

  func keep(_ out: UnsafeMutableRawPointer) -> Any? {
    storage.keep(record.boxed(out), of: record)
  }

  func constructing(_ make: () throws -> Void) throws {
    guard storage.beginConstruction() else {
      throw container.outsideScope(record, ended: true, in: context)
    }
    defer { storage.finishConstruction() }
    try make()
  }
}
