import PlugboardAnalysis
import PlugboardKit

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
      report.signatures = loaded.signatures
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
    let chosenKey = request.flatMap { graph.provider(of: $0) }.map { graph.nodes[$0].key }
    // A contribution is no candidate for a single request: its tree is
    // listed among the contributions. A decorator is none either: it is
    // in the chosen registration's tree.
    let passedOver = graph.nodes.filter { node in
      node.key.service.name == typeName && node.key != chosenKey
        && !(node.isAvailable && node.key.isContribution) && !node.key.isDecorator
    }
    return passedOver.map {
      "\($0.key.shortDescription) at \($0.info.site): \(whyNot($0, for: request?.service))"
    }
      + replacedRegistrations() + inactiveRegistrations() + unloadedRegistrations()
  }

  /// Why `node`, a registration of the type in the graph, is not the one a
  /// request for `identity` gets.
  private func whyNot(_ node: DependencyGraph.Node, for identity: TypeIdentity?) -> String {
    if !node.isAvailable { return "its plugin failed to load" }
    if node.key.service != identity {
      let library = TypeOrigin.library(of: node.key.service.type) ?? "another library"
      return "another type with the same name, defined in \(library) — module "
        + "\(node.key.service.moduleName ?? "?") is loaded twice"
    }
    if !node.key.arguments.isEmpty {
      let arguments = node.key.arguments.map(\.shortName).joined(separator: ", ")
      return "takes runtime arguments (\(arguments)); resolve it with arguments"
    }
    if let other = node.key.name { return "registered under the name \"\(other)\"; ask with --name \(other)" }
    if let name { return "unnamed, and the request is for the name \"\(name)\"" }
    if let selection = selection(for: node.key.service) {
      return "unnamed requests go to the registration named \"\(selection.name)\" instead "
        + "(\(selection.reason))"
    }
    return "not the registration a request for it gets"
  }

  /// Registrations of the type a later one of the same key replaced.
  private func replacedRegistrations() -> [String] {
    deployment.container.duplicateRegistrations.filter {
      $0.key.service.name == typeName && $0.key.name == name
    }.map { duplicate in
      var why = "replaced by the later registration at \(duplicate.winner)"
      if let first = duplicate.replaced.plugin, let second = duplicate.winner.plugin, first != second {
        why +=
          " ('\(second)', \(checker.manifestPosition(of: second)), comes after '\(first)', "
          + "\(checker.manifestPosition(of: first)), in plugins.json)"
      }
      return "\(duplicate.key.shortDescription) at \(duplicate.replaced): \(why)"
    }
  }

  /// Registrations of the type the manifest excludes, or made for other
  /// profiles than the active one.
  private func inactiveRegistrations() -> [String] {
    deployment.container.inactiveRegistrations.filter { $0.key.service.name == typeName }.map { info in
      if let exclusion = info.exclusion {
        return "\(info.key.shortDescription) at \(info.site): \(exclusion) in \(deployment.manifest.path)"
      }
      let active = deployment.profile.map { "the active profile is '\($0.name)'" } ?? "no profile is active"
      return "\(info.key.shortDescription) at \(info.site): registered only for profile "
        + "\(info.profiles?.description ?? "?"); \(active)"
    }
  }

  /// Registrations of the type that plugins which did not load declare.
  private func unloadedRegistrations() -> [String] {
    checker.probes.flatMap { probe in
      probe.registrations.filter { $0.type == typeName }.map { registration in
        "\(registration.shortDescription) at \(registration.file):\(registration.line) in plugin "
          + "\(probe.entry.name): \(checker.notLoaded(probe.entry))"
      }
    }
  }
}
