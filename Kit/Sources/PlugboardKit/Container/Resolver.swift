/// Resolves services. Factories receive one; ``Container`` is one.
///
/// Every form throws a ``ResolutionError`` instead of returning nil or
/// crashing: the error names the key, the chain from the top-level request,
/// and what to do.
public protocol Resolver: Sendable {
  /// The instance registered for `serviceType` under `name`.
  /// - Throws: ``ResolutionError`` when nothing is registered, the request
  ///   closes a cycle, the factory throws, or the service needs arguments.
  func resolve<Service>(_ serviceType: Service.Type, name: String?) throws -> Service

  /// The instance of a registration whose factory takes runtime arguments;
  /// they are matched by their types, in order.
  /// - Throws: ``ResolutionError`` of kind `argumentsMismatch` when the
  ///   service is registered, but with other argument types.
  func resolve<Service, First, each Rest>(
    _ serviceType: Service.Type, name: String?, arguments first: First, _ rest: repeat each Rest
  ) throws -> Service

  /// The instance, or `nil` only when nothing is registered for the type and
  /// name. A cycle, a throwing factory or missing arguments still throw.
  func resolveIfRegistered<Service>(_ serviceType: Service.Type, name: String?) throws -> Service?
}

extension Resolver {
  /// The unnamed instance; the type may be inferred:
  /// `let repository: AuthRepository = try r.resolve()`.
  public func resolve<Service>(_ serviceType: Service.Type = Service.self) throws -> Service {
    try resolve(serviceType, name: nil)
  }

  /// The instance under `name`, its type inferred from the context.
  public func resolve<Service>(name: String?) throws -> Service {
    try resolve(Service.self, name: name)
  }

  /// The unnamed instance of a registration taking runtime arguments.
  public func resolve<Service, First, each Rest>(
    _ serviceType: Service.Type = Service.self, arguments first: First, _ rest: repeat each Rest
  ) throws -> Service {
    try resolve(serviceType, name: nil, arguments: first, repeat each rest)
  }

  /// One runtime argument, spelled as in Swinject.
  public func resolve<Service, Argument>(
    _ serviceType: Service.Type = Service.self, name: String? = nil, argument: Argument
  ) throws -> Service {
    try resolve(serviceType, name: name, arguments: argument)
  }

  /// The unnamed instance, or `nil` only when nothing is registered.
  public func resolveIfRegistered<Service>(_ serviceType: Service.Type = Service.self) throws
    -> Service?
  {
    try resolveIfRegistered(serviceType, name: nil)
  }
}
