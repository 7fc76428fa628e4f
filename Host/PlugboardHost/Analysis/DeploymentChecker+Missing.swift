import PlugboardKit

extension DeploymentChecker {
  /// Every required dependency nothing available serves, each reported
  /// once, with the shortest chain from the `Application` when the
  /// registration is reachable from it, and from the registration itself
  /// otherwise (a plugin may register more than the application uses; it
  /// is checked all the same).
  func missingDependencies() -> [Finding] {
    var findings: [Finding] = []
    // By index: copying or hashing thousands of nodes costs more than the walk.
    var examined = [Bool](repeating: false, count: graph.nodes.count)
    let starts = (graph.root.map { [$0] } ?? []) + graph.nodes.indices.filter { graph.nodes[$0].isAvailable }
    for start in starts where !examined[start] {
      let (order, parent) = graph.reach(from: start)
      for node in order where !examined[node] {
        examined[node] = true
        for edge in graph.edges(from: node) where !edge.isOptional && edge.to == nil {
          let chain = graph.chain(to: node, parent: parent).map { ChainStep(graph.nodes[$0].info) }
          findings.append(missing(edge, chain: chain, reachable: start == graph.root))
        }
      }
    }
    return findings
  }

  /// Nothing registers the `Application`: `plugboard run` would fail first.
  func missingApplication() -> [Finding] {
    guard graph.root == nil else { return [] }
    let key = DependencyGraph.applicationKey
    var explanation = [
      "`plugboard run` resolves \(key.service.name) from the container, and no loaded plugin registers it."
    ]
    explanation += providersElsewhere(of: key).map(\.sentence)
    return [
      Finding(
        .error, .missingApplication,
        title: "no \(key.service.shortName) is registered; `plugboard run` has nothing to run",
        explanation: explanation,
        suggestions: deployment.container.suggestions(for: key).map(\.description),
        action: "Register the entry point in a plugin the deployment loads: "
          + "container.register((any Application).self) { r in ... }.")
    ]
  }

  /// The finding for one unserved edge: a module loaded twice, a provider
  /// in a plugin that failed or is not loaded, or nothing at all.
  private func missing(_ edge: DependencyGraph.Edge, chain: [ChainStep], reachable: Bool) -> Finding {
    let requester = graph.nodes[edge.from].info
    let key = edge.key
    let declared = "declared at \(requester.site)"
    let dependency = Self.relation(of: edge, requester: requester)
    let unreachable =
      reachable || graph.root == nil
      ? []
      : [
        "\(requester.key.shortDescription) is not reachable from the Application; it was checked on its own."
      ]
    let suggestions = deployment.container.suggestions(for: key)

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
    var explanation = [
      "\(key) is \(dependency), and no loaded plugin registers it."
    ]
    explanation += inactiveNotes(for: key) + unknownProviders() + unreachable
    return Finding(
      .error, .missingDependency,
      title: "\(requester.key.shortDescription) needs \(key.shortDescription), which nothing registers",
      explanation: explanation,
      chain: chain + [ChainStep(key: key, site: nil, scope: nil, marker: "✗ not registered")],
      suggestions: suggestions.map(\.description),
      action: "Register \(key.shortDescription) in a plugin the deployment loads, for example "
        + "container.register(\(MetatypeSpelling.registration(key))) { r in ... }, or correct the dependency "
        + "\(declared).",
      missingKey: key)
  }

  /// How the requester depends on the key, for "X is …": "a dependency
  /// declared at …", "a lazy dependency declared at …", "the registration
  /// Starter is forwarded to (at …)".
  private static func relation(of edge: DependencyGraph.Edge, requester: RegistrationInfo) -> String {
    if requester.forwardsTo == edge.key {
      return "the registration \(requester.key.shortDescription) is forwarded to (at \(requester.site))"
    }
    let kind: String
    switch edge.deferral {
    case .lazy: kind = "a lazy dependency (Lazy)"
    case .provider: kind = "a deferred dependency (Provider)"
    case .afterInit: kind = "a dependency resolved after construction (initCompleted)"
    case nil: kind = "a dependency"
    }
    return "\(kind) declared at \(requester.site)"
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

  /// Registrations of `key`'s type that the active profile leaves out.
  func inactiveNotes(for key: ServiceKey) -> [String] {
    deployment.container.inactiveRegistrations.filter { $0.key.service == key.service }.compactMap { info in
      guard let profiles = info.profiles else { return nil }
      let active = deployment.profile.map { "the active profile is '\($0.name)'" } ?? "no profile is active"
      return "\(info.key.shortDescription) is registered only for profile \(profiles) "
        + "(at \(info.site)); \(active)."
    }
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
        $0.type == wanted.service.name && $0.name == wanted.name
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
