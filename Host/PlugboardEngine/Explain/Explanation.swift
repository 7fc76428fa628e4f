@_spi(Host) import PlugboardKit

/// `plugboard explain`'s answer: how a request for a type (and name) would
/// be resolved in a deployment — the registration chosen, its dependency
/// tree, and why every other candidate was not chosen.
package struct Explanation {
  let checker: DeploymentChecker
  /// The qualified type name asked about.
  let typeName: String
  let name: String?

  package init(checker: DeploymentChecker, typeName: String, name: String?) {
    self.checker = checker
    self.typeName = typeName
    self.name = name
  }

  private var graph: DependencyGraph { checker.graph }
  private var deployment: Deployment { checker.deployment }

  /// Every type name the deployment knows of, loaded or not.
  package static func knownTypeNames(_ checker: DeploymentChecker) -> [String] {
    registeredTypeNames(checker.deployment.container) + checker.probes.flatMap(\.registrations).map(\.type)
  }

  /// Every type name the loaded plugins register, in any profile: what
  /// `explain` answers for without probing the plugins that are not loaded.
  package static func registeredTypeNames(_ container: Container) -> [String] {
    (container.registrations + container.inactiveRegistrations).map(\.key.service.name)
  }

  /// The answer, as data; its `lines` are the text report. `findings`:
  /// the errors `check` finds besides load failures.
  package func report(findings: [Finding]) -> ExplanationReport {
    let identities = identitiesNamed(typeName)
    // The identity a request would use: the one with a registration that is
    // available, otherwise any.
    let identity =
      identities.first { identity in
        graph.provider(of: ServiceKey(service: identity, name: name)) != nil
      } ?? identities.first
    let request = identity.map { ServiceKey(service: $0, name: name) }
    var chosenStep: ChainStep?
    var chosenInfo: RegistrationInfo?
    var selectionText: String?
    var tree: ExplainedNode?
    if let request, let chosen = graph.provider(of: request) {
      let info = graph.nodes[chosen].info
      chosenStep = ChainStep(info)
      chosenInfo = info
      if request != info.key, let selection = selection(for: request.service) {
        selectionText = "the name \"\(selection.name)\" (\(selection.reason))"
      }
      var seen = Set<Int>()
      tree = describe(chosen, optional: false, path: [], seen: &seen)
    }
    var report = ExplanationReport(
      manifest: deployment.manifest.path, type: typeName, name: name, profile: ProfileEffects(deployment),
      chosen: chosenStep, selection: selectionText, tree: tree,
      notChosen: otherCandidates(request: request, identities: identities), problems: deployment.problems,
      findings: findings, contributions: name == nil ? contributions(to: identities) : [])
    if let plugin = chosenStep?.plugin, let resolved = deployment.configuration(of: plugin) {
      report.settings = SettingListing.of(resolved)
    }
    if let plugin = chosenStep?.plugin,
      let loaded = deployment.loadedPlugins.first(where: { $0.name == plugin })
    {
      report.pluginKit = PluginKitVersion(plugin: loaded.kitVersion, host: HostVersions.current.kit)
    }
    if let chosenInfo, let hooks = LifecycleHookNames(deployment.container).of(chosenInfo) {
      report.hooks = hooks
    }
    return report
  }

  /// The dependency tree of each contribution to the extension point
  /// `identities` name, in resolution order: what a `Contributions`
  /// dependency on it gets.
  private func contributions(to identities: [TypeIdentity]) -> [ExplainedNode] {
    let contributors = DependencyGraph.contributors(of: graph.nodes, in: deployment.container)
    return identities.flatMap { identity in
      (contributors[identity.id] ?? []).map { node in
        var seen = Set<Int>()
        return describe(node, optional: false, path: [], seen: &seen)
      }
    }
  }

  private func selection(for service: TypeIdentity) -> ServiceSelection? {
    deployment.container.selections.first { $0.service == service }
  }

  private func identitiesNamed(_ typeName: String) -> [TypeIdentity] {
    let container = deployment.container
    var seen = Set<TypeIdentity>()
    return (container.registrations + container.inactiveRegistrations).map(\.key.service).filter {
      $0.name == typeName && seen.insert($0).inserted
    }
  }

  /// The tree below `node`, which `path` (its ancestors) leads to; a node
  /// already drawn is not drawn again.
  private func describe(_ node: Int, optional: Bool, path: [Int], seen: inout Set<Int>, via: String = "")
    -> ExplainedNode
  {
    let info = graph.nodes[node].info
    var notes: [String] = []
    if !graph.nodes[node].declaresDependencies { notes.append("dependencies not declared") }
    let repeated = !seen.insert(node).inserted
    if repeated && !graph.edges(from: node).isEmpty { notes.append("see above") }
    var children: [ExplainedNode] = []
    if !repeated {
      for edge in graph.edges(from: node) {
        // A Lazy, Provider or initCompleted edge: shown, and not a cycle
        // when it leads back up, since the instance exists by then.
        let via = edge.deferral.map { " (\(Self.phrase($0)))" } ?? (edge.key.isDecorator ? " (wraps it)" : "")
        if let target = edge.to, !path.contains(target), target != node {
          children.append(
            describe(target, optional: edge.isOptional, path: path + [node], seen: &seen, via: via))
        } else {
          let status: ExplainedNode.Status =
            edge.to == nil ? .missing : edge.isDeferred ? .afterConstruction : .cycle
          children.append(
            ExplainedNode(
              service: edge.key.service.name, display: edge.key.shortDescription + via,
              status: status, optional: edge.isOptional, scope: nil, plugin: nil,
              file: nil, line: nil, site: nil, notes: [], children: []))
        }
      }
    }
    return ExplainedNode(
      service: info.key.service.name, display: info.key.shortDescription + via,
      status: repeated ? .repeated : .registered, optional: optional, scope: info.scopeName,
      plugin: info.site.plugin, file: info.site.fileID, line: info.site.line, site: info.site.description,
      notes: notes, children: children)
  }

  /// How a deferred edge is reached: `lazy`, `provider`, `after init`.
  private static func phrase(_ kind: DeferredDependency.Kind) -> String {
    switch kind {
    case .lazy: "lazy"
    case .provider: "provider"
    case .afterInit: "after init"
    @unknown default: "deferred"
    }
  }

  /// Why each other registration of the type was not chosen.
  private func otherCandidates(request: ServiceKey?, identities: [TypeIdentity]) -> [String] {
    var reasons: [String] = []
    let chosenKey = request.flatMap { graph.provider(of: $0) }.map { graph.nodes[$0].key }
    let identity = request?.service
    // A contribution is no candidate for a single request: its tree is
    // listed among the contributions. A decorator is none either: it is
    // in the chosen registration's tree.
    for node in graph.nodes
    where node.key.service.name == typeName && node.key != chosenKey
      && !(node.isAvailable && node.key.isContribution) && !node.key.isDecorator
    {
      let site = "\(node.key.shortDescription) at \(node.info.site)"
      if !node.isAvailable {
        reasons.append("\(site): its plugin failed to load")
      } else if node.key.service != identity {
        let library = TypeOrigin.library(of: node.key.service.type) ?? "another library"
        reasons.append(
          "\(site): another type with the same name, defined in \(library) — module "
            + "\(node.key.service.moduleName ?? "?") is loaded twice")
      } else if !node.key.arguments.isEmpty {
        let arguments = node.key.arguments.map(\.shortName).joined(separator: ", ")
        reasons.append("\(site): takes runtime arguments (\(arguments)); resolve it with arguments")
      } else if let other = node.key.name {
        reasons.append("\(site): registered under the name \"\(other)\"; ask with --name \(other)")
      } else if let name {
        reasons.append("\(site): unnamed, and the request is for the name \"\(name)\"")
      } else if let selection = selection(for: node.key.service) {
        reasons.append(
          "\(site): unnamed requests go to the registration named \"\(selection.name)\" instead "
            + "(\(selection.reason))")
      } else {
        reasons.append("\(site): not the registration a request for it gets")
      }
    }
    for duplicate in deployment.container.duplicateRegistrations
    where duplicate.key.service.name == typeName && duplicate.key.name == name {
      var why = "replaced by the later registration at \(duplicate.winner)"
      if let first = duplicate.replaced.plugin, let second = duplicate.winner.plugin, first != second {
        why +=
          " ('\(second)', \(checker.manifestPosition(of: second)), comes after '\(first)', "
          + "\(checker.manifestPosition(of: first)), in plugins.json)"
      }
      reasons.append("\(duplicate.key.shortDescription) at \(duplicate.replaced): \(why)")
    }
    for info in deployment.container.inactiveRegistrations where info.key.service.name == typeName {
      if let exclusion = info.exclusion {
        reasons.append(
          "\(info.key.shortDescription) at \(info.site): \(exclusion) in \(deployment.manifest.path)")
        continue
      }
      let active = deployment.profile.map { "the active profile is '\($0.name)'" } ?? "no profile is active"
      reasons.append(
        "\(info.key.shortDescription) at \(info.site): registered only for profile "
          + "\(info.profiles?.description ?? "?"); \(active)")
    }
    for probe in checker.probes {
      for registration in probe.registrations where registration.type == typeName {
        reasons.append(
          "\(registration.shortDescription) at \(registration.file):\(registration.line) in plugin \(probe.entry.name): "
            + checker.notLoaded(probe.entry))
      }
    }
    return reasons
  }
}
