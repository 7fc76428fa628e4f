/// A read-only description of one registration, for listings and tools.
public struct RegistrationInfo: Sendable, CustomStringConvertible {
  public let key: ServiceKey
  public let scope: ObjectScope
  public let site: RegistrationSite
  /// The dependencies the registration declared, or `nil` when it declared
  /// none (its factory is a closure the container cannot see into).
  public let dependencies: [ServiceKey]?
  /// Dependencies the factory uses only when they are registered.
  public let optionalDependencies: [ServiceKey]
  /// The profiles the registration serves; `nil` for every profile.
  public let profiles: ProfileCondition?
  /// Dependencies resolved only after the instance exists (a `Lazy`, a
  /// `Provider`, an `initCompleted` handler): edges that must be served but
  /// that cannot close a construction cycle.
  public let deferredDependencies: [DeferredDependency]
  /// For a type forwarded with ``ServiceEntry/implements(_:name:file:line:)`` or
  /// ``Container/forward(_:name:to:file:line:)``: the registration that makes the instance.
  public let forwardsTo: ServiceKey?
  /// The name of the ``CustomScope`` the registration is in, if any (its
  /// ``scope`` then reads `.container`, the built-in scope it behaves like).
  public let customScope: String?
  /// Why configuration leaves this contribution out ("excluded by
  /// profiles.mock.contributions.Command"), set by
  /// ``Container/excludeContribution(_:reason:)``; `nil` when it is not
  /// excluded. An excluded registration is listed among the container's
  /// `inactiveRegistrations`, as one of another profile is.
  public let exclusion: String?
  /// Whether the factory is `async` (`{ r async throws in … }`): only
  /// `try await` can resolve it, and a synchronous dependency on it fails.
  public internal(set) var isAsync = false
  /// The global actor the factory is isolated to, when it is isolated to
  /// one: `"MainActor"` for an async `{ @MainActor r async in … }`, and for
  /// a synchronous `register(_:on: MainActor.self)`, whose `isAsync` is
  /// `false` (a synchronous resolve serves it, on the main actor only).
  public internal(set) var isolation: String?
  /// Whether the factory is isolated to the main actor, async or not.
  public var isIsolatedToMainActor: Bool { isolation == MainActorIsolation.name }
  /// Whether an `onDispose` hook is set: it runs when the instance's scope
  /// ends or is reset, which a `.transient` or `.graph` instance never is.
  public internal(set) var hasDisposeHook = false

  /// The same information for a registration whose factory is `async`.
  func asAsync(isolation: String?) -> RegistrationInfo {
    var info = self
    info.isAsync = true
    info.isolation = isolation
    return info
  }

  /// The same information for a registration whose synchronous factory is
  /// isolated to the global actor called `isolation`.
  func isolated(to isolation: String) -> RegistrationInfo {
    var info = self
    info.isolation = isolation
    return info
  }

  public var description: String {
    guard let forwardsTo else {
      let scopeText = customScope ?? scope.description
      let traits = [scopeText] + (isAsync ? ["async"] : []) + (isolation.map { [$0] } ?? [])
      return "\(key) [\(traits.joined(separator: ", "))] at \(site)"
    }
    return "\(key) → \(forwardsTo.shortDescription) (forwarded) at \(site)"
  }
}

/// Two registrations with the same key in one container. The later one wins,
/// as in Swinject; the earlier one stays recorded so tools can report it.
public struct DuplicateRegistration: Sendable, CustomStringConvertible {
  public let key: ServiceKey
  /// The registration that serves the key.
  public let winner: RegistrationSite
  /// The registration it replaced.
  public let replaced: RegistrationSite

  public var description: String {
    "\(key) is registered twice: \(winner) replaces \(replaced) (the later registration wins)"
  }
}
