/// A registration whose factory is `async` (registered with the
/// `register` that takes an async closure).
///
/// A ``PlainRecord`` for the type-specific work it inherits, whose
/// synchronous factory throws ``AsyncRegistrationRequired``: a synchronous
/// resolve reaches it by the same paths as any other registration, which
/// therefore pay nothing for async registrations existing, and turns the
/// error into ``ResolutionError/Kind/asyncRegistration``. Only the async
/// resolution (``Container/resolveAsync(_:name:)``) calls `asyncFactory`.
final class AsyncPlainRecord<Service>: PlainRecord<Service>, AsyncRecord, @unchecked Sendable {
  typealias Factory = @isolated(any) @Sendable (AsyncResolver) async throws -> sending Service

  let asyncFactory: Factory
  /// The name of the global actor the factory is isolated to, if any.
  let isolationName: String?
  // Guarded by the record's striped lock (see `AsyncRecord`).
  var madeInstance: Service?

  init(key: ServiceKey, scope: ObjectScope, owner: Container, factory: @escaping Factory) {
    self.asyncFactory = factory
    self.isolationName = factory.isolation.map { String(describing: type(of: $0)) }
    super.init(key: key, scope: scope, owner: owner) { _ in throw AsyncRegistrationRequired() }
  }

  override var hasAsyncFactory: Bool { true }

  override func forgetAsyncInstance() -> Any? { forgetMadeInstance() }

  override var info: RegistrationInfo { super.info.asAsync(isolation: isolationName) }

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
