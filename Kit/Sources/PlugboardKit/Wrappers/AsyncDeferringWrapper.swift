/// What an ``AsyncLazy`` or ``AsyncProvider`` resolves when read: the
/// wrapped service by the async resolve, with the name and runtime
/// arguments it was requested with.
struct AsyncDeferral<Service> {
  let resolve: nonisolated(nonsending) () async throws -> Service
}

/// The async deferring wrappers: requested and declared as ``Lazy`` and
/// ``Provider`` are, but resolving through the async path when read.
protocol AsyncDeferringWrapper: WrapperRequest {
  associatedtype Service
  init(make: AsyncDeferral<Service>)
  /// How the edge to the wrapped service is declared.
  static var kind: DeferredDependency.Kind { get }
}

extension AsyncDeferringWrapper {
  static func resolveWrapper(in container: Container, name: String?) throws -> Self {
    Self(make: AsyncDeferral { try await container.resolveAsync(Service.self, name: name) })
  }

  /// Requested with runtime arguments it is `notRegistered`: reading it
  /// may resolve many times, and arguments can be sent to an async
  /// factory only once.
  static func resolveWrapper<First, each Rest>(
    in container: Container, name: String?, arguments first: First, _ rest: repeat each Rest
  ) throws -> Self {
    throw container.missing(Self.self, name: name)
  }

  static func isServed(in container: Container, name: String?) -> Bool {
    wrappedIsRegistered(Service.self, in: container, name: name)
  }

  static func declaredDependency(name: String?) -> DeclaredDependency {
    .deferred(DeferredDependency(key: ServiceKey(Service.self, name: name), kind: kind, isAwaited: true))
  }
}
