/// A wrapper whose instance resolves its wrapped service later, on use:
/// ``Lazy`` and ``Provider`` share how they are requested and declared.
protocol DeferringWrapper: WrapperRequest {
  associatedtype Service
  init(make: @escaping () throws -> Service)
  /// How the edge to the wrapped service is declared.
  static var kind: DeferredDependency.Kind { get }
}

extension DeferringWrapper {
  static func resolveWrapper(in container: Container, name: String?) throws -> Self {
    Self(
      make: container.deferred(Service.self, as: Self.self, name: name) { container in
        try container.resolve(Service.self, name: name)
      })
  }

  static func resolveWrapper<First, each Rest>(
    in container: Container, name: String?, arguments first: First, _ rest: repeat each Rest
  ) throws -> Self {
    Self(
      make: container.deferred(Service.self, as: Self.self, name: name) { container in
        try container.resolve(Service.self, name: name, arguments: first, repeat each rest)
      })
  }

  static func isServed(in container: Container, name: String?) -> Bool {
    wrappedIsRegistered(Service.self, in: container, name: name)
  }

  static func declaredDependency(name: String?) -> DeclaredDependency {
    .deferred(DeferredDependency(key: ServiceKey(Service.self, name: name), kind: kind))
  }
}

extension Container {
  /// The resolution a `Lazy` or `Provider` runs later, failing with the
  /// chain that led to its injection followed by the wrapper's link.
  func deferred<Service>(
    _ serviceType: Service.Type, as wrapper: Any.Type, name: String?,
    _ resolve: @escaping (Container) throws -> Service
  ) -> () throws -> Service {
    let injectedAt = ResolutionContext.current.links
    let link = ChainLink(key: ServiceKey(wrapper, name: name), site: nil, scope: nil)
    return { [self] in
      do {
        return try resolve(self)
      } catch let error as ResolutionError {
        throw error.prefixed(by: injectedAt + [link])
      }
    }
  }
}

extension ResolutionError {
  /// The same error, its chain continuing `links` (a deferred resolution's
  /// origin); suggestions and notes are unchanged.
  func prefixed(by links: [ChainLink]) -> ResolutionError {
    ResolutionError(
      kind: kind, key: key, chain: links + chain, registries: registries, otherThreads: otherThreads)
  }
}
