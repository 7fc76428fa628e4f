import PlugboardKit

/// A type made by a ``Factory``: it declares what it needs from the
/// container (`Dependency`, resolved once, when the factory is made) apart
/// from what its caller gives at run time (`Payload`, a user id, a
/// navigation controller), as in the Pure library.
///
/// Forgetting a dependency is a compile error in `Dependency`'s
/// initializer rather than a failed `resolve` when the screen opens.
/// Register the module's ``Factory`` and declare the dependencies with
/// `.dependsOn(...)` so that `plugboard check` sees the edges:
///
/// ```swift
/// container.register(Factory<ProfileViewModel>.self) { r in
///   Factory(dependency: .init(repository: try r.resolve()))
/// }.dependsOn((any ProfileRepository).self)
/// ```
public protocol FactoryModule {
  /// What the module needs from the container, usually a struct of services.
  associatedtype Dependency
  /// What the caller gives each time it makes an instance; `Void` when
  /// nothing, so that ``Factory/create()`` takes no argument.
  associatedtype Payload = Void

  /// Makes the module from its dependencies and one payload.
  init(dependency: Dependency, payload: Payload)
}

/// Holds a ``FactoryModule``'s dependencies and makes instances of it from
/// payloads. Register it like any service; resolving it resolves the
/// dependencies once, and every ``create(payload:)`` reuses them.
public struct Factory<Module: FactoryModule> {
  /// The dependencies every instance receives.
  public let dependency: Module.Dependency

  /// A factory that gives `dependency` to every instance it makes.
  public init(dependency: Module.Dependency) {
    self.dependency = dependency
  }

  /// A new instance made from the dependencies and `payload`.
  public func create(payload: Module.Payload) -> Module {
    Module(dependency: dependency, payload: payload)
  }
}

extension Factory where Module.Payload == Void {
  /// A new instance made from the dependencies, for modules without payload.
  public func create() -> Module {
    Module(dependency: dependency, payload: ())
  }
}

extension Factory: Sendable where Module.Dependency: Sendable {}

extension FactoryModule where Payload == Void {
  /// Makes the module from its dependencies alone, as Pure's convenience
  /// for modules without payload:
  /// `HomeReactor(dependency: .init(fetchPosts: fetchPosts))`.
  public init(dependency: Dependency) {
    self.init(dependency: dependency, payload: ())
  }
}
