import PlugboardKit

/// A deployment brought up: what became of every plugin the manifest
/// names, and the one container all loaded plugins registered into.
public struct Deployment {
  public let manifest: Manifest
  /// One per manifest entry, in manifest order.
  public let outcomes: [PluginOutcome]
  /// Every registration of every plugin that assembled, each attributed to
  /// its plugin.
  public let container: Container

  /// Loads every enabled plugin of `manifest`, then assembles those that
  /// loaded: all register first, then each one's `loaded(resolver:)` runs,
  /// so a plugin may look at the whole graph there.
  public static func bringUp(_ manifest: Manifest, loader: PluginLoader = PluginLoader()) -> Deployment {
    let container = Container()
    let outcomes = DeploymentAssembler.assemble(loader.load(manifest), into: container)
    return Deployment(manifest: manifest, outcomes: outcomes, container: container)
  }

  /// Every problem found, in manifest order.
  public var problems: [DeploymentProblem] {
    outcomes.compactMap { outcome in
      guard case .failed(_, let problem) = outcome else { return nil }
      return problem
    }
  }

  /// The plugins that loaded and assembled.
  public var loadedPlugins: [LoadedPlugin] {
    outcomes.compactMap { outcome in
      guard case .loaded(let plugin) = outcome else { return nil }
      return plugin
    }
  }
}
