import PlugboardKit

// The infix `~>` is not declared here: the standard library already
// declares it (`DefaultPrecedence`), and a second declaration makes every
// use ambiguous. These functions overload the standard library's operator.

/// SwinjectAutoregistration's resolve operator with the type inferred:
/// `Car(engine: try r~>)`.
postfix operator ~>

/// Resolves `service`, as SwinjectAutoregistration's `r ~> Engine.self`;
/// `try` where Swinject force-unwraps:
/// `container.register(Car.self) { r in Car(engine: try r ~> Engine.self) }`.
/// - Throws: ``ResolutionError``, as ``Container/resolve(_:name:)``.
public func ~> <Service>(resolver: Resolver, service: Service.Type) throws -> Service {
  try resolver.resolve(service, name: nil)
}

/// Resolves the type the context asks for: `Car(engine: try r~>)`.
/// - Throws: ``ResolutionError``, as ``Container/resolve(_:name:)``.
public postfix func ~> <Service>(resolver: Resolver) throws -> Service {
  try resolver.resolve(Service.self, name: nil)
}

/// Resolves `service` under `name`: `try r ~> (Engine.self, name: "v8")`.
/// - Throws: ``ResolutionError``, as ``Container/resolve(_:name:)``.
public func ~> <Service>(resolver: Resolver, request: (service: Service.Type, name: String))
  throws -> Service
{
  try resolver.resolve(request.service, name: request.name)
}

/// Resolves `service` with one runtime argument:
/// `try r ~> (Engine.self, argument: 8)`.
/// - Throws: ``ResolutionError``, as ``Container/resolve(_:name:argument:)``.
public func ~> <Service, Argument>(
  resolver: Resolver, request: (service: Service.Type, argument: Argument)
) throws -> Service {
  try resolver.resolve(request.service, argument: request.argument)
}

/// Resolves `service` with two runtime arguments, given as a tuple:
/// `try r ~> (Engine.self, arguments: (8, "petrol"))`.
/// - Throws: ``ResolutionError``, as ``Container/resolve(_:name:arguments:_:)``.
public func ~> <Service, First, Second>(
  resolver: Resolver, request: (service: Service.Type, arguments: (First, Second))
) throws -> Service {
  try resolver.resolve(request.service, arguments: request.arguments.0, request.arguments.1)
}

/// Resolves `service` with three runtime arguments, given as a tuple:
/// `try r ~> (Engine.self, arguments: (8, "petrol", true))`. Swinject's
/// operator goes to nine; past three, write `resolve(_:arguments:)`.
/// - Throws: ``ResolutionError``, as ``Container/resolve(_:name:arguments:_:)``.
public func ~> <Service, First, Second, Third>(
  resolver: Resolver, request: (service: Service.Type, arguments: (First, Second, Third))
) throws -> Service {
  try resolver.resolve(
    request.service, arguments: request.arguments.0, request.arguments.1, request.arguments.2)
}
