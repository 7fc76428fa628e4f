import PlugboardKit

/// The configure stage of bring-up: resolves each loaded plugin's
/// configuration and hands it over, so the plugin makes its assemblies
/// from it. A plugin whose configuration has problems (a required setting
/// with no value, a value of the wrong type, a setting it does not
/// declare) fails at this stage, before any of its assemblies run.
enum DeploymentConfigurator {
  static func configure(
    _ outcomes: [PluginOutcome], profile: ProfileDeclaration?, resolver: ConfigurationResolver
  ) -> (outcomes: [PluginOutcome], configurations: [ResolvedConfiguration]) {
    var result = outcomes
    var configurations: [ResolvedConfiguration] = []
    for (index, outcome) in outcomes.enumerated() {
      guard case .loaded(let plugin) = outcome else { continue }
      let (configuration, unknown) = resolver.resolve(
        plugin.entry, profile: profile, declarations: plugin.bundle.settings)
      let resolved = ResolvedConfiguration(
        entry: plugin.entry, configuration: configuration, unknown: unknown)
      configurations.append(resolved)
      if let problem = problem(of: plugin, resolved) { result[index] = .failed(plugin.entry, problem) }
    }
    return (result, configurations)
  }

  private static func problem(of plugin: LoadedPlugin, _ resolved: ResolvedConfiguration)
    -> DeploymentProblem?
  {
    func failure(_ detail: String) -> DeploymentProblem {
      .plugin(plugin.name, file: plugin.file, stage: .configure, detail)
    }
    let issues =
      resolved.problems.map { Terminal.sanitize($0.detail) }
      + resolved.unknown.map { Terminal.sanitize(ConfigurationText.unknown($0)) }
    if !issues.isEmpty {
      return failure(
        "is not configured correctly: " + issues.joined(separator: "; ")
          + " (plugboard check lists each with its fix; see Docs/configuration.md)")
    }
    Progress.stage(.configure, plugin.name, file: plugin.file)
    do {
      try plugin.bundle.configure(with: resolved.configuration)
    } catch {
      return failure("failed to make its assemblies from its configuration: \(Terminal.sanitize("\(error)"))")
    }
    return nil
  }
}
