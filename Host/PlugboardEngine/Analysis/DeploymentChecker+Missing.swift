import PlugboardAnalysis
import PlugboardKit

/// The findings about missing dependencies that need the deployment:
/// its plugins, their outcomes and probes.
extension DeploymentChecker {
  /// What the deployment knows of a dependency nothing available serves
  /// that the container alone cannot tell (a module loaded twice, a
  /// provider in a plugin that failed or is not loaded), for
  /// ``GraphAnalysis/missingDependencies(_:)``; nil when nothing registers it.
  func unserved(
    _ edge: DependencyGraph.Edge, chain: [ChainStep], unreachable: [String], suggestions: [Suggestion]
  ) -> Finding? {
    let requester = graph.nodes[edge.from].info
    let key = edge.key
    let dependency = GraphAnalysis.relation(of: edge, requester: requester)

    if let copy = suggestions.first(where: { $0.reason == .duplicatedModule }) {
      return duplicatedModule(edge, copy: copy, chain: chain, unreachable: unreachable)
    }
    if let index = graph.unavailableProvider(of: key) {
      let provider = graph.nodes[index].info
      let plugin = provider.site.plugin ?? "?"
      var reason = "failed to load"
      if case .failed(_, let problem) = outcome(of: plugin) { reason = "failed: \(problem)" }
      return Finding(
        .error, .failedProvider,
        title: "\(requester.key.shortDescription) needs \(key.shortDescription), which only plugin "
          + "'\(plugin)' registers, and that plugin failed",
        explanation: [
          "\(key) is \(dependency).",
          "It is registered at \(provider.site), and plugin '\(plugin)' \(reason)",
        ] + unreachable,
        chain: chain + [
          ChainStep(key: key, site: provider.site, scope: provider.scope, marker: "✗ its plugin failed")
        ],
        action: "Fix plugin '\(plugin)' (its failure is reported above); until it loads, nothing "
          + "serves \(key.shortDescription).")
    }
    let providers = providersElsewhere(of: key)
    if let elsewhere = providers.first {
      return Finding(
        .error, .disabledProvider,
        title: "\(requester.key.shortDescription) needs \(key.shortDescription), which only plugin "
          + "'\(elsewhere.entry.name)' registers, and that plugin is not loaded",
        explanation: ["\(key) is \(dependency)."] + providers.map(\.sentence) + unreachable,
        chain: chain + [
          ChainStep(
            key: key, site: elsewhere.site, scope: nil,
            marker: "✗ plugin '\(elsewhere.entry.name)' is not loaded")
        ],
        action: elsewhere.entry.enabled
          ? "Load plugin '\(elsewhere.entry.name)' in this profile (its \"profiles\" in "
            + "plugins[\(elsewhere.entry.index)]), or register \(key.shortDescription) in a plugin that is loaded."
          : "Enable plugin '\(elsewhere.entry.name)' in plugins.json (remove \"enabled\": false from "
            + "plugins[\(elsewhere.entry.index)]), or register \(key.shortDescription) in a plugin that is loaded."
      )
    }
    return nil
  }

  private func duplicatedModule(
    _ edge: DependencyGraph.Edge, copy: Suggestion, chain: [ChainStep], unreachable: [String]
  ) -> Finding {
    let requester = graph.nodes[edge.from].info
    let key = edge.key
    let module = key.service.moduleName ?? "?"
    let wanted =
      TypeOrigin.library(of: key.service.type) ?? library(of: requester.site.plugin) ?? "an unknown library"
    let registered =
      TypeOrigin.library(of: copy.key.service.type) ?? library(of: copy.site.plugin) ?? "an unknown library"
    return Finding(
      .error, .duplicatedModule,
      title: "\(requester.key.shortDescription) needs \(key.service.name) from another copy of module "
        + "\(module)",
      explanation: [
        "\(requester.key.shortDescription) (registered at \(requester.site)) asks for the "
          + "\(key.service.name) defined in \(wanted).",
        "The only registration of that name, at \(copy.site), is of the \(copy.key.service.name) "
          + "defined in \(registered): the same name, another type.",
        "Module \(module) is loaded twice: a library carries its own static copy of it instead of "
          + "sharing one.",
      ] + unreachable,
      chain: chain + [
        ChainStep(key: key, site: nil, scope: nil, marker: "✗ registered only under another identity")
      ],
      action: "Make \(module) a .dynamic library product of its own package, and depend on that "
        + "product (.package(path: ...)) from the host and every plugin instead of building its "
        + "sources into them, so that one copy is loaded; then rebuild \(fileName(wanted)) "
        + "and \(fileName(registered)): "
        + Set([wanted, registered].map(RebuildCommand.forLibrary(at:))).sorted().joined(separator: "; ") + "."
    )
  }

  private func fileName(_ path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
  }

  /// Plugins that failed before registering anything: any of them may be
  /// the one meant to provide a missing service.
  func unknownProviders() -> [String] {
    deployment.outcomes.compactMap { outcome in
      guard case .failed(let entry, let problem) = outcome,
        !deployment.container.registrations.contains(where: { $0.site.plugin == entry.name })
      else { return nil }
      return "Plugin '\(entry.name)' failed at stage '\(problem.stage.rawValue)', so what it would "
        + "register is unknown."
    }
  }

  /// Registrations of `key` (matched by type name, name and argument
  /// names) in plugins that were not loaded, as their probes reported.
  func providersElsewhere(of key: ServiceKey) -> [ProviderElsewhere] {
    let wanted = graph.servingKey(for: key)
    return probes.flatMap { probe in
      probe.registrations.filter {
        $0.kind == .service && $0.type == wanted.service.name && $0.name == wanted.name
          && $0.arguments == wanted.arguments.map(\.name)
      }.map { registration in
        ProviderElsewhere(
          entry: probe.entry,
          site: RegistrationSite(
            fileID: registration.file, line: registration.line, plugin: probe.entry.name),
          sentence: "It is registered at \(registration.file):\(registration.line) in plugin "
            + "'\(probe.entry.name)', and \(notLoaded(probe.entry)).")
      }
    }
  }
}

/// A registration in a plugin that is not loaded.
struct ProviderElsewhere {
  let entry: PluginEntry
  let site: RegistrationSite
  /// "It is registered at … in plugin 'X', which is disabled in plugins.json …".
  let sentence: String
}
