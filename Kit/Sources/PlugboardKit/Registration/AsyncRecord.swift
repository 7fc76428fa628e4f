/// A registration whose factory is `async` (registered with the
/// `register` that takes an async closure).
///
/// A ``PlainRecord`` for the type-specific work it inherits, whose
/// synchronous factory throws ``AsyncRegistrationRequired``: a synchronous
/// resolve reaches it by the same paths as any other registration, which
/// therefore pay nothing for async registrations existing, and turns the
/// error into ``ResolutionError/Kind/asyncRegistration``. Only the async
/// resolution (``Container/resolveAwaiting(_:name:)``) calls `asyncFactory`.
///
/// A `.container` instance is kept in `madeInstance`, not in the
/// lock-free `shared` slot a synchronous resolve reads first, so that a
/// synchronous request fails the same way before and after the instance
/// exists rather than depending on who came first.
final class AsyncRecord<Service>: PlainRecord<Service>, @unchecked Sendable {
  typealias Factory = @isolated(any) @Sendable (AsyncResolver) async throws -> sending Service

  let asyncFactory: Factory
  /// The name of the global actor the factory is isolated to, if any.
  let isolationName: String?
  /// The `.container` instance, once made.
  // Guarded by the record's striped lock.
  private var madeInstance: Service?

  init(key: ServiceKey, scope: ObjectScope, owner: Container, factory: @escaping Factory) {
    self.asyncFactory = factory
    self.isolationName = factory.isolation.map { String(describing: type(of: $0)) }
    super.init(key: key, scope: scope, owner: owner) { _ in throw AsyncRegistrationRequired() }
  }

  /// The `.container` instance, if it has been made.
  var storedInstance: Service? {
    StripedLock.withLock(for: self) { madeInstance }
  }

  /// Stores `instance` as the `.container` instance unless one is stored
  /// already, and returns the one stored.
  func store(_ instance: Service) -> Service {
    StripedLock.withLock(for: self) {
      if let made = madeInstance { return made }
      madeInstance = instance
      return instance
    }
  }

  /// Forgets the awaited instance, kept apart from the lock-free slot, and
  /// returns it for its dispose hook; the caller releases it outside the
  /// lock (its deinit may resolve again).
  override var awaitsFactory: Bool { true }

  override func forgetAwaitedInstance() -> Any? {
    StripedLock.withLock(for: self) { () -> Service? in
      defer { madeInstance = nil }
      return madeInstance
    }
  }

  override var info: RegistrationInfo {
    var info = super.info
    info.isAsync = true
    info.isolation = isolationName
    return info
  }

  /// Registers `type` as a forwarding that awaits this registration, so
  /// that the forwarded type is async too.
  override func forwarding<Forwarded>(
    _ type: Forwarded.Type, name: String?, in container: Container, file: String, line: Int
  ) -> ServiceEntry<Forwarded>? {
    let target = key
    return container.register(type, name: name, file: file, line: line) {
      (resolver: AsyncResolver) async throws -> Forwarded in
      let instance = try await resolver.resolve(Service.self, name: target.name)
      return try ForwardingError.cast(instance, to: target)
    }
  }
}

/// What the synchronous factory of an ``AsyncRecord`` throws; resolution
/// turns it into ``ResolutionError/Kind/asyncRegistration``.
struct AsyncRegistrationRequired: Error {}
