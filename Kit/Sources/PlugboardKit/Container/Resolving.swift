/// What resolves services, as a protocol: Swinject's `Resolver` for code
/// that takes a resolver as a parameter and wants a fake or a wrapper in
/// its place. ``Container`` conforms.
///
/// Both requirements take `name:` explicitly (`resolve(T.self, name: nil)`):
///
/// ```swift
/// final class CoordinatorFactory {
///   let resolver: any Resolving
///   init(resolver: any Resolving) { self.resolver = resolver }
///   func make() throws -> Coordinator { try resolver.resolve(Coordinator.self, name: nil) }
/// }
/// // in a test:
/// final class ResolverFake: Resolving {
///   func resolve<Service>(_ serviceType: Service.Type, name: String?) throws -> Service { … }
///   func resolve<Service, First, each Rest>(
///     _ serviceType: Service.Type, name: String?, arguments first: First, _ rest: repeat each Rest
///   ) throws -> Service { … }
/// }
/// ```
///
/// Factories still receive ``Resolver``, which is ``Container`` itself:
/// a factory's nested `try r.resolve()` then calls the container's
/// inlinable `resolve`, specialized for the service type, where through
/// this protocol every nested request would run unspecialized generic
/// code (the container rows of BENCHMARKS.md). To fake what a factory
/// resolves, register the fake in a child container, or use
/// ``Container/withOverrides(_:)``.
public protocol Resolving: AnyObject {
  /// The instance registered for `serviceType` under `name`.
  /// - Throws: ``ResolutionError`` from a container; whatever a fake throws.
  func resolve<Service>(_ serviceType: Service.Type, name: String?) throws -> Service

  /// The instance registered for `serviceType` under `name` with factory
  /// arguments.
  /// - Throws: ``ResolutionError`` from a container; whatever a fake throws.
  func resolve<Service, First, each Rest>(
    _ serviceType: Service.Type, name: String?, arguments first: First, _ rest: repeat each Rest
  ) throws -> Service
}

// No conveniences (`resolve(_:)`, `argument:`) in an extension: on a
// `Container` they would compete with its own inlinable methods, and a
// call that chose one would leave the specialised path.
extension Container: Resolving {}
