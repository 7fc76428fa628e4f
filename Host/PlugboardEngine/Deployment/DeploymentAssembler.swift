import PlugboardKit

/// Runs the loaded plugins' assemblies against one container, turning an
/// assembly that throws into its plugin's failure (stage "assemble").
enum DeploymentAssembler {
  /// `outcomes` with every plugin whose assemblies threw marked as failed.
  /// Registrations a failing required plugin made before it threw stay in
  /// the container, attributed to it, for `check` and `list` to show; the
  /// deployment is reported unhealthy. An optional plugin's are removed:
  /// the deployment runs without that plugin, so none of it may serve,
  /// and what it replaced serves again.
  /// `configure` runs once every plugin registered and before any
  /// `loaded(resolver:)`, which may already resolve: the profile's
  /// per-service choices are made there.
  /// Plugins assemble in `order` (``AssemblyOrder``); those it refuses
  /// are marked as failed without assembling. Each stage is announced to
  /// `progress` before it starts.
  static func assemble(
    _ outcomes: [PluginOutcome], order: AssemblyOrder? = nil, into attribution: AssemblyAttribution,
    progress: ChildSession,
    configure: (Container, _ outcomes: [PluginOutcome]) -> Void = { _, _ in }
  ) -> [PluginOutcome] {
    let container = attribution.container
    var result = outcomes
    let order = order ?? AssemblyOrder(outcomes)
    for (index, problem) in order.refusals { result[index] = .failed(outcomes[index].entry, problem) }
    for stage in [AssemblyError.Stage.assemble, .loaded] {
      if stage == .loaded {
        progress.report(.stage(.applyProfile, plugin: nil, file: nil))
        configure(container, result)
      }
      for index in order.indices {
        guard case .loaded(let plugin) = result[index] else { continue }
        if let problem = run(stage, of: plugin, in: attribution, progress: progress) {
          result[index] = .failed(plugin.entry, problem)
          if plugin.entry.optional { container.removeRegistrations(attributedTo: plugin.name) }
        }
      }
    }
    return result
  }

  private static func run(
    _ stage: AssemblyError.Stage, of plugin: LoadedPlugin, in attribution: AssemblyAttribution,
    progress: ChildSession
  ) -> DeploymentProblem? {
    let container = attribution.container
    progress.stage(stage == .assemble ? .assemble : .loadedHook, plugin.name, file: plugin.file)
    let refusedBefore = attribution.refused.count
    let problem = attribution.assembling(plugin: plugin.name) { () -> DeploymentProblem? in
      for assembly in plugin.bundle.assemblies {
        do {
          switch stage {
          case .assemble: try assembly.assemble(container: container)
          case .loaded: try assembly.loaded(resolver: container)
          // The host runs the stages its own PlugboardKit has, no others.
          @unknown default: break
          }
        } catch {
          let failure = AssemblyError(assembly: type(of: assembly), stage: stage, underlying: error)
          return DeploymentProblem.plugin(
            plugin.name, file: plugin.file, stage: .assemble, "failed to assemble: \(failure)")
        }
      }
      return nil
    }
    // Registering in another plugin's name would put its registrations
    // under rules the operator wrote for that plugin (`"Timing.*"`): the
    // plugin fails as one whose assembly threw.
    if let refused = attribution.refused.dropFirst(refusedBefore).first {
      return DeploymentProblem.plugin(
        plugin.name, file: plugin.file, stage: .assemble, ImpersonationRefusal(refused).message)
    }
    return problem
  }
}
