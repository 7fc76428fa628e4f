/// A type that a container serves by resolving another one when nothing is
/// registered for the type itself: `Optional<Dog>` by `Dog` if registered,
/// `Lazy<Dog>` and `Provider<Dog>` by deferring the request for `Dog`.
///
/// Only consulted after a lookup has found nothing, so it costs the hot path
/// nothing; a registration of the wrapper type itself still wins.
protocol WrapperRequest {
  /// The instance for an argument-free request.
  static func resolveWrapper(in container: Container, name: String?) throws -> Self
  /// The instance for a request with runtime arguments, passed on to the
  /// wrapped type's registration.
  static func resolveWrapper<First, each Rest>(
    in container: Container, name: String?, arguments first: First, _ rest: repeat each Rest
  ) throws -> Self
  /// Whether the wrapped service is registered (see
  /// ``Container/isServed(_:name:)``).
  static func isServed(in container: Container, name: String?) -> Bool
  /// How a parameter or declared dependency of this type reaches the
  /// wrapped service, for whole-graph checks.
  static func declaredDependency(name: String?) -> DeclaredDependency
}

extension WrapperRequest {
  /// Whether `resolveIfRegistered` finds the wrapped service, so that
  /// `resolveIfRegistered(Lazy<Dog>.self)` is a `Lazy` when `Dog` is
  /// registered rather than `nil`.
  static func wrappedIsRegistered<Wrapped>(_ wrapped: Wrapped.Type, in container: Container, name: String?)
    -> Bool
  {
    container.isServed(wrapped, name: name)
  }
}

extension Container {
  /// Whether `serviceType` under `name` has registrations taking runtime
  /// arguments, or is a wrapper type (`Optional`, `Lazy`, `Provider`)
  /// whose wrapped type is registered: what `resolveIfRegistered` with
  /// arguments asks before it resolves.
  @usableFromInline
  func hasVariantsOrWrapped(_ serviceType: any Any.Type, name: String?) -> Bool {
    if hasVariants(serviceType, name: name) { return true }
    guard let wrapper = WrapperTypes.wrapper(serviceType) else { return false }
    return wrapper.isServed(in: self, name: name)
  }
}

/// One dependency as a check sees it: the service it reaches, and how.
enum DeclaredDependency {
  case required(ServiceKey)
  case optional(ServiceKey)
  case deferred(DeferredDependency)

  /// The declaration for a parameter or declared type: wrappers declare
  /// their wrapped service, anything else itself.
  static func of(_ type: any Any.Type, name: String? = nil) -> DeclaredDependency {
    if mayBeWrapper(type), let wrapper = type as? any WrapperRequest.Type {
      return wrapper.declaredDependency(name: name)
    }
    return .required(ServiceKey(type, name: name))
  }

  /// Whether `type` is an instance of one of the generic types that are
  /// wrappers, by its name. Declarations are made at registration, once
  /// per declared type, and the first conformance check of a type scans
  /// the conformance records of every loaded library: with hundreds of
  /// plugins loaded, `dependsOn` and `autoregister` cost time quadratic in
  /// the plugins. The name is read without that scan, and the
  /// cast only confirms what it suggests.
  private static func mayBeWrapper(_ type: any Any.Type) -> Bool {
    let name = _typeName(type, qualified: true)
    return name.hasPrefix("Swift.Optional<") || name.hasPrefix("PlugboardKit.Lazy<")
      || name.hasPrefix("PlugboardKit.Provider<") || name.hasPrefix("PlugboardKit.Contributions<")
      || name.hasPrefix("PlugboardKit.AsyncLazy<") || name.hasPrefix("PlugboardKit.AsyncProvider<")
  }
}

extension Optional: WrapperRequest {
  static func resolveWrapper(in container: Container, name: String?) throws -> Self {
    try container.resolveIfRegistered(Wrapped.self, name: name)
  }

  static func resolveWrapper<First, each Rest>(
    in container: Container, name: String?, arguments first: First, _ rest: repeat each Rest
  ) throws -> Self {
    try container.resolveIfRegistered(Wrapped.self, name: name, arguments: first, repeat each rest)
  }

  static func isServed(in container: Container, name: String?) -> Bool {
    wrappedIsRegistered(Wrapped.self, in: container, name: name)
  }

  static func declaredDependency(name: String?) -> DeclaredDependency {
    switch DeclaredDependency.of(Wrapped.self, name: name) {
    case .required(let key), .optional(let key): .optional(key)
    case .deferred(let deferred): .deferred(deferred)
    }
  }
}

extension Container {
  /// The answer to a request that matched no registration: a wrapper type
  /// served through its wrapped type, or the `notRegistered` error.
  @usableFromInline
  func resolveUnregistered<Service>(_ serviceType: Service.Type, name: String?) throws -> Service {
    if let wrapper = WrapperTypes.wrapper(serviceType),
      let value = try wrapper.resolveWrapper(in: self, name: name) as? Service
    {
      return value
    }
    throw missing(serviceType, name: name)
  }

  /// ``resolveUnregistered(_:name:)`` for a request with runtime arguments;
  /// `nil` when the service is not a wrapper type.
  func resolveUnregistered<Service, First, each Rest>(
    _ serviceType: Service.Type, name: String?, arguments first: First, _ rest: repeat each Rest
  ) throws -> Service? {
    guard let wrapper = WrapperTypes.wrapper(serviceType) else { return nil }
    return try wrapper.resolveWrapper(in: self, name: name, arguments: first, repeat each rest)
      as? Service
  }
}
