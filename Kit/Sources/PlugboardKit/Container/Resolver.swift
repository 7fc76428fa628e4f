/// What factories receive to resolve their dependencies: the container.
///
/// Swinject spells this as a protocol; here it is the container itself, so
/// that `try r.resolve()` inside a factory calls the container's inlinable
/// `resolve` directly and is specialized for the service type in the
/// plugin's own code. Through a protocol existential, every nested
/// resolution would run unspecialized generic code that looks up generic
/// metadata on each call — most of the cost of a resolved graph. Code
/// that takes a resolver and wants a fake in tests takes ``Resolving``.
public typealias Resolver = Container

extension Container {
  /// One runtime argument, spelled as in Swinject:
  /// `resolve(Animal.self, argument: "Mimi")`.
  /// - Throws: ``ResolutionError``, as ``resolve(_:name:arguments:_:)``.
  public func resolve<Service, Argument>(
    _ serviceType: Service.Type = Service.self, name: String? = nil, argument: Argument
  ) throws -> Service {
    try resolve(serviceType, name: name, arguments: argument)
  }
}

extension Container {
  /// ``resolveIfRegistered(_:name:arguments:_:)`` with one argument.
  public func resolveIfRegistered<Service, Argument>(
    _ serviceType: Service.Type = Service.self, name: String? = nil, argument: Argument
  ) throws -> Service? {
    try resolveIfRegistered(serviceType, name: name, arguments: argument)
  }
}
