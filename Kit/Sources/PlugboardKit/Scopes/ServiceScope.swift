/// A scope of its own for one unit of work (a request, a job, a session):
/// `.scoped` registrations are made once in it, and disposed when it ends.
/// .NET's `IServiceScope`, with `end()` for `Dispose()`.
///
/// ```swift
/// let scope = container.makeScope()
/// let handler = try scope.resolve(RequestHandler.self)  // its .scoped parts: new, made once here
/// try await handler.handle(request)
/// try await scope.end()  // the scope's instances' dispose hooks, newest first
/// ```
///
/// ``Container/withScope(_:)-(_)`` ends the scope for you, when its body
/// returns or throws.
///
/// Inside the scope everything resolves as in the container, which the
/// scope falls back to: `.container` instances stay shared with it and
/// every other scope, `.transient` and `.graph` ones belong to whoever
/// resolved them. Only `.scoped` instances belong to the scope. Where an
/// API wants a ``Resolver``, pass ``resolver``.
///
/// Ending is safe from any thread and happens once: a second `end()`
/// returns at once. A `.scoped` instance still being made when the scope
/// ends is waited for, then disposed with the others; resolving a
/// `.scoped` service from an ended scope throws a ``ResolutionError``.
/// Do not end a scope from inside a factory running in it: the end waits
/// for that factory to finish, which waits for the end.
public final class ServiceScope: Sendable {
  /// How long each async dispose hook may take when neither the scope nor
  /// its container (``Container/disposeTimeout``) sets a limit: 30 s, the
  /// host's default `hookTimeout`.
  public static let defaultDisposeTimeout = Duration.seconds(30)

  /// The resolver of the scope: a container whose parent is the one the
  /// scope was made from, and whose `.scoped` instances are this scope's.
  /// Registering in it overrides for this scope alone.
  public let resolver: Resolver
  /// How long each async dispose hook may take before it is cancelled,
  /// left behind and reported as timed out.
  public let disposeTimeout: Duration
  let storage: ScopeStorage

  init(parent: Container, disposeTimeout: Duration) {
    let storage = ScopeStorage()
    self.storage = storage
    self.resolver = Container(scopeOf: parent, storage: storage)
    self.disposeTimeout = disposeTimeout
  }

  /// Whether `end()` has been called.
  public var hasEnded: Bool { storage.hasEnded }

  /// Ends the scope and runs its instances' dispose hooks, newest first,
  /// on the calling thread, after waiting for constructions under way. An
  /// async hook cannot be awaited here: it does not run, and is reported
  /// (end such a scope with `await scope.end()`).
  /// - Throws: ``ScopeDisposalError`` when any hook failed, once every
  ///   hook has had its turn.
  public func end() throws(ScopeDisposalError) {
    guard storage.end() else { return }
    let (hooks, failures) = Disposal.runSynchronously(storage.drainBlocking())
    if !failures.isEmpty { throw ScopeDisposalError(failures: failures, hooks: hooks) }
  }

  /// Ends the scope and awaits its instances' dispose hooks, newest first,
  /// each async one within ``disposeTimeout``, after waiting for
  /// constructions under way. Runs every hook even when the calling task
  /// is cancelled.
  /// - Throws: ``ScopeDisposalError`` when any hook failed or timed out,
  ///   once every hook has had its turn.
  public func end() async throws(ScopeDisposalError) {
    guard storage.end() else { return }
    let dropped = await storage.drain()
    let (hooks, failures) = await Disposal.run(dropped, limit: disposeTimeout)
    if !failures.isEmpty { throw ScopeDisposalError(failures: failures, hooks: hooks) }
  }

  /// Resolves in the scope, as the container's ``Container/resolve(_:name:)``.
  /// - Throws: ``ResolutionError``; `outsideScope` for a `.scoped`
  ///   service once the scope has ended.
  @inlinable
  public func resolve<Service>(_ serviceType: Service.Type = Service.self, name: String? = nil)
    throws -> Service
  {
    try resolver.resolve(serviceType, name: name)
  }

  /// Resolves with runtime arguments in the scope, as the container's
  /// ``Container/resolve(_:name:arguments:_:)``.
  @inlinable
  public func resolve<Service, First, each Rest>(
    _ serviceType: Service.Type = Service.self, name: String? = nil,
    arguments first: First, _ rest: repeat each Rest
  ) throws -> Service {
    try resolver.resolve(serviceType, name: name, arguments: first, repeat each rest)
  }

  /// The instance, or `nil` when nothing is registered for the type and
  /// name, as the container's ``Container/resolveIfRegistered(_:name:)``.
  @inlinable
  public func resolveIfRegistered<Service>(
    _ serviceType: Service.Type = Service.self, name: String? = nil
  ) throws -> Service? {
    try resolver.resolveIfRegistered(serviceType, name: name)
  }
}
