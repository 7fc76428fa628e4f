/// The `async` factory of a registration with runtime arguments, kept by
/// its ``ArgumentRecord``: its arguments as one tuple, so that one to
/// three of them need no variadic generic function type (which the 6.3
/// compiler cannot abstract when it is `async` and `@isolated(any)`).
///
/// Named before Kit settled on `Async…` for what belongs to async
/// factories; the name stays because the type of a frozen record's field
/// is part of Kit's ABI (Kit/ABI.md, "Names that stay").
@usableFromInline
class AwaitedArgumentFactory: @unchecked Sendable {
  /// The name of the global actor the factory is isolated to, if any.
  let isolationName: String?

  init(isolation: (any Actor)?) {
    self.isolationName = isolation.map { String(describing: type(of: $0)) }
  }
}

/// ``AwaitedArgumentFactory`` for a service and a tuple of argument types.
final class AsyncArgumentFactory<Service, Arguments>: AwaitedArgumentFactory, @unchecked Sendable {
  /// Calls the registered factory, hopping to its isolation; the
  /// arguments are `sending`, as they cross into it.
  let call: @Sendable (AsyncResolver, sending Arguments) async throws -> sending Service

  init(
    isolation: (any Actor)?,
    call: @escaping @Sendable (AsyncResolver, sending Arguments) async throws -> sending Service
  ) {
    self.call = call
    super.init(isolation: isolation)
  }
}
