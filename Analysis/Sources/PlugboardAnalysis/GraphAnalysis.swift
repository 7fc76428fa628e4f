import PlugboardKit

/// The analysis of a container's dependency graph that `plugboard check`
/// and ``Container/check(profile:requireApplication:configurations:)`` share: missing dependencies with their
/// chains, cycles, captive dependencies, duplicate and undeclared
/// registrations, extension point cardinality. One implementation, so a
/// finding reads the same in a unit test as in a deployment's report.
///
/// Nothing is resolved and no factory runs (see ``DependencyGraph``).
/// What a deployment knows beyond the container (which plugin failed and
/// why, what a plugin left out would provide, where a plugin sits in the
/// manifest) comes in through ``ValidationHooks``.
public struct GraphAnalysis {
  public let graph: DependencyGraph
  let container: Container
  /// The profile the registrations are taken in, as the texts name it.
  public let profile: String?
  /// The container's registrations then its ancestors', in ``profile``:
  /// where suggestions come from.
  let inventories: [RegistrationInventory]
  /// Registrations made for the plugins rather than by them (plugboard's
  /// default Logger): numbered last, and replacing one is no duplicate.
  let isDefault: (RegistrationSite) -> Bool

  /// - Parameters:
  ///   - profile: the profile whose `inProfiles` registrations take part,
  ///     whatever the container's ``Container/activeProfile``; nil for none.
  ///   - failedPlugins: plugins whose registrations are kept as unavailable
  ///     nodes (a plugin that failed after registering).
  ///   - isDefault: registrations made for the plugins rather than by them
  ///     (plugboard's default Logger): numbered after the others, and a
  ///     plugin replacing one makes no duplicate.
  public init(
    container: Container, profile: String?, failedPlugins: Set<String> = [],
    isDefault: @escaping (RegistrationSite) -> Bool = { _ in false }
  ) {
    self.container = container
    self.isDefault = isDefault
    self.profile = profile
    let inventories = container.inventories(asIf: profile)
    self.inventories = inventories
    graph = DependencyGraph(
      container: container, registrations: inventories[0].serving, failedPlugins: failedPlugins,
      placingLast: isDefault, ancestors: Array(inventories.dropFirst()))
  }

  /// Registrations a request for `key` may have meant, as a failed
  /// resolution in ``profile`` would suggest them.
  public func suggestions(for key: ServiceKey) -> [Suggestion] {
    Suggestion.candidates(for: key, in: inventories)
  }

  /// Every graph finding, in the order `plugboard check` reports them
  /// (before it sorts errors first): a missing `Application` when
  /// `requireApplication`, then the graph's, then each of `configurations`'
  /// settings, then hooks on scopes that cannot carry them.
  public func findings(
    _ hooks: ValidationHooks = ValidationHooks(), requireApplication: Bool = false,
    configurations: [PluginConfiguration] = []
  ) -> [Finding] {
    (requireApplication ? missingApplication(hooks) : []) + missingDependencies(hooks) + cycles()
      + captiveDependencies() + duplicateRegistrations(hooks) + undeclaredDependencies()
      + extensionPointCardinalities(hooks) + configurations.flatMap { configurationFindings($0, hooks) }
      + lifecycleHookScopes() + disposeHooksThatNeverRun() + synchronousDependenciesOnAsync()
      + decoratorsWithoutTarget() + asyncDecoratorsOfSynchronousRegistrations()
      + nonisolatedDependenciesOnMainActor()
  }
}
