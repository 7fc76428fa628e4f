import PlugboardKit

/// A deployment brought up: what became of every plugin the manifest
/// names, and the one container all loaded plugins registered into.
package struct Deployment {
  package let manifest: Manifest
  /// One per manifest entry, in manifest order.
  package let outcomes: [PluginOutcome]
  /// Every registration of every plugin that assembled, each attributed to
  /// its plugin.
  package let container: Container
  /// The profile it was brought up in; nil when the manifest declares none.
  package internal(set) var profile: ActiveProfile? = nil
  /// Problems applying the profile's per-service choices.
  package internal(set) var profileProblems: [DeploymentProblem] = []
  /// Drop-in folders that could not be read (see ``PluginDiscovery``).
  package internal(set) var folderProblems: [DeploymentProblem] = []
  /// The order the loaded plugins assembled in, and why.
  package internal(set) var assemblyOrder: AssemblyOrder? = nil
  /// Each plugin's configuration as resolved for ``profile``, for the
  /// plugins whose library was made to hand over its bundle, in manifest order.
  package internal(set) var configurations: [ResolvedConfiguration] = []
  /// Where its bring-up's stages were announced, and where what follows
  /// (validation, the application, its hooks) is: the loader's (see
  /// ``PluginLoader/progress``).
  package internal(set) var progress: ChildSession
  /// The settings it was brought up with, which the plugins probed for it
  /// are brought up with too.
  package internal(set) var settings: HostSettings

  /// Loads every enabled plugin of `manifest`, then assembles those that
  /// loaded: all register first, then each one's `loaded(resolver:)` runs,
  /// so a plugin may look at the whole graph there. The manifest's
  /// `activeProfile` is the profile.
  package static func bringUp(_ manifest: Manifest, loader: PluginLoader, settings: HostSettings)
    -> Deployment
  {
    let profile = manifest.activeProfile.flatMap(manifest.profile(named:)).map {
      ActiveProfile($0, source: .manifest, manifestDefault: manifest.activeProfile)
    }
    return bringUp(manifest, profile: profile, loader: loader, settings: settings)
  }

  /// Brings `manifest` up in `profile`: only the plugins that load in it
  /// are loaded (the others are reported as disabled, see
  /// ``excludedByProfile``), profile-tagged registrations follow it, and
  /// its per-service choices and the manifest's contribution rules are
  /// applied after every plugin registered and before any
  /// `loaded(resolver:)` runs. With `enforcingRequirements`
  /// false, plugins' requirements are ignored and plugins assemble in load
  /// order (a plugin probed alone). `settings` choose the default logger's
  /// level and whether a process holding a secret hides itself.
  package static func bringUp(
    _ manifest: Manifest, profile: ActiveProfile?, loader: PluginLoader, settings: HostSettings,
    enforcingRequirements: Bool = true, configuration: ConfigurationResolver = ConfigurationResolver()
  ) -> Deployment {
    // The host keeps the right to say which plugin each registration
    // belongs to; plugins are handed only the container.
    let attribution = AssemblyAttribution()
    let container = attribution.container
    // Before anything registers, so the registry never holds a snapshot
    // built for another profile.
    container.activeProfile = profile?.name
    // Dispose hooks follow the lifecycle hooks' limit (Docs/lifecycle.md):
    // the scopes plugins make inherit it.
    if let limit = manifest.hookTimeout { container.disposeTimeout = limit }
    // First, so that a plugin's own Logger replaces it.
    DefaultLogger.register(into: attribution, settings: settings, manifest: manifest)
    var profileProblems: [DeploymentProblem] = []
    let loaded = loader.loadAll(manifest, profile: profile?.name)
    let configured = DeploymentConfigurator.configure(
      loaded.outcomes, profile: profile?.declaration, resolver: configuration, progress: loader.progress,
      hidingProcessHoldingSecrets: settings.hidesProcessHoldingSecrets)
    let order = AssemblyOrder(configured.outcomes, enforcingRequirements: enforcingRequirements)
    let outcomes = DeploymentAssembler.assemble(
      configured.outcomes, order: order, into: attribution, progress: loader.progress
    ) {
      container, outcomes in
      let failed = outcomes.compactMap { outcome -> String? in
        guard case .failed(let entry, _) = outcome else { return nil }
        return entry.name
      }
      if let profile {
        profileProblems = ServiceSelector.apply(
          profile.declaration, to: container, manifest: manifest.path, failedPlugins: failed)
      }
      let notLoaded = Set(
        outcomes.compactMap { outcome -> String? in
          guard case .disabled(let entry) = outcome else { return nil }
          return entry.name
        })
      profileProblems += ContributionFilter.apply(
        manifest.contributions, profile: profile?.declaration, to: container, manifest: manifest.path,
        failedPlugins: failed, notLoaded: notLoaded)
      profileProblems += ContributionFilter.apply(
        manifest.decorators, profile: profile?.declaration, to: container, manifest: manifest.path,
        failedPlugins: failed, notLoaded: notLoaded, subject: .decorators)
    }
    var deployment = Deployment(
      manifest: manifest, outcomes: outcomes, container: container, progress: loader.progress,
      settings: settings)
    deployment.profile = profile
    deployment.profileProblems = profileProblems
    deployment.folderProblems = loaded.folderProblems
    deployment.assemblyOrder = order
    deployment.configurations = configured.configurations
    return deployment
  }

  /// Every problem found, in manifest order, then the drop-in folders',
  /// then the profile's. An optional plugin's failure is not one (see
  /// ``optionalFailures``).
  package var problems: [DeploymentProblem] {
    outcomes.compactMap { outcome in
      guard case .failed(let entry, let problem) = outcome, !entry.optional else { return nil }
      return problem
    } + folderProblems + profileProblems
  }

  /// The enabled plugins the active profile leaves out.
  package var excludedByProfile: [PluginEntry] {
    outcomes.compactMap { outcome in
      guard case .disabled(let entry) = outcome, entry.enabled else { return nil }
      return entry
    }
  }

  /// The configuration resolved for the plugin called `name`, when it
  /// loaded far enough to declare its settings.
  package func configuration(of name: String) -> ResolvedConfiguration? {
    configurations.first { $0.entry.name == name }
  }

  /// The plugins that loaded and assembled.
  package var loadedPlugins: [LoadedPlugin] {
    outcomes.compactMap { outcome in
      guard case .loaded(let plugin) = outcome else { return nil }
      return plugin
    }
  }
}
