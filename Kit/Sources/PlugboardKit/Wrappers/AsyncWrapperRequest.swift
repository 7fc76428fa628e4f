/// A wrapper type the async resolve serves itself when nothing is
/// registered for it, so that async registrations behind it are awaited:
/// `Optional<T>` and `Contributions<T>`. (``Lazy`` and ``Provider``
/// resolve later, synchronously; their async forms are ``AsyncLazy`` and
/// ``AsyncProvider``.)
protocol AsyncWrapperRequest: WrapperRequest {
  /// The instance for an argument-free `try await resolver.resolve(Self.self)`.
  nonisolated(nonsending) static func resolveAsyncWrapper(in container: Container, name: String?)
    async throws -> Self
}

extension Optional: AsyncWrapperRequest {
  nonisolated(nonsending) static func resolveAsyncWrapper(in container: Container, name: String?)
    async throws -> Self
  {
    try await container.asyncResolver.resolveIfRegistered(Wrapped.self, name: name)
  }
}

extension Contributions: AsyncWrapperRequest {
  nonisolated(nonsending) static func resolveAsyncWrapper(in container: Container, name: String?)
    async throws -> Self
  {
    guard name == nil else { throw container.missing(Self.self, name: name) }
    var instances: [Service] = []
    var names: [String?] = []
    try await container.forEachContributionAsync(Service.self) { name, instance in
      instances.append(instance)
      names.append(name)
    }
    return Contributions(instances, names: names)
  }
}
