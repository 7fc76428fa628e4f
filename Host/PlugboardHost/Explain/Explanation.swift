import PlugboardKit

/// `plugboard explain`'s answer: how a request for a type (and name) would
/// be resolved in a deployment — the registration chosen, its dependency
/// tree, and why every other candidate was not chosen.
struct Explanation {
  let checker: DeploymentChecker
  /// The qualified type name asked about.
  let typeName: String
  let name: String?

  private var graph: DependencyGraph { checker.graph }
  private var deployment: Deployment { checker.deployment }

  /// Every type name the deployment knows of, loaded or not.
  static func knownTypeNames(_ checker: DeploymentChecker) -> [String] {
    let container = checker.deployment.container
    return (container.registrations + container.inactiveRegistrations).map(\.key.service.name)
      + checker.probes.flatMap(\.registrations).map(\.type)
  }

  /// The report's lines, and whether the request would be served by a
  /// complete tree (exit status 0).
  func render() -> (lines: [String], resolves: Bool) {
    let identities = identitiesNamed(typeName)
    // The identity a request would use: the one with a registration that is
    // available, otherwise any.
    let identity =
      identities.first { identity in
        graph.provider(of: ServiceKey(service: identity, name: name)) != nil
      } ?? identities.first
    let request = identity.map { ServiceKey(service: $0, name: name) }
    var lines = ["explain: \(typeName)\(name.map { " named \"\($0)\"" } ?? "")"]
    if let effects = ProfileEffects(deployment) { lines += [""] + ProfileLines.lines(effects) }
    var resolves = false
    if let request, let chosen = graph.provider(of: request) {
      let info = graph.nodes[chosen].info
      lines += [
        "", "Chosen:",
        "  \(ChainStep(info).text)",
        "  scope \(info.scope), \(info.key.name.map { "name \"\($0)\"" } ?? "unnamed")",
      ]
      if request != info.key,
        let selection = deployment.container.selections.first(where: {
          $0.service == request.service
        })
      {
        lines.append("  unnamed requests are served by the name \"\(selection.name)\" (\(selection.reason))")
      }
      var tree: [String] = []
      var seen = Set<Int>()
      resolves = describe(chosen, prefix: "  ", childPrefix: "  ", path: [], seen: &seen, into: &tree)
      lines += ["", "Dependency tree:"] + tree
    } else {
      lines += [
        "", "Chosen:", "  nothing: no loaded plugin registers it\(name == nil ? "" : " under that name")",
      ]
    }
    let others = otherCandidates(request: request, identities: identities)
    lines +=
      ["", "Not chosen:"] + (others.isEmpty ? ["  (no other candidates)"] : others.map { "  - \($0)" })
    return (lines, resolves)
  }

  private func identitiesNamed(_ typeName: String) -> [TypeIdentity] {
    let container = deployment.container
    var seen = Set<TypeIdentity>()
    return (container.registrations + container.inactiveRegistrations).map(\.key.service).filter {
      $0.name == typeName && seen.insert($0).inserted
    }
  }

  /// One line per node, drawn as a tree; false when something below is
  /// missing or cyclic.
  private func describe(
    _ node: Int, prefix: String, childPrefix: String, path: [Int], seen: inout Set<Int>,
    into lines: inout [String]
  ) -> Bool {
    let info = graph.nodes[node].info
    var notes: [String] = []
    if !graph.nodes[node].declaresDependencies { notes.append("dependencies not declared") }
    let repeated = !seen.insert(node).inserted
    if repeated && !graph.edges(from: node).isEmpty { notes.append("see above") }
    lines.append(
      "\(prefix)\(info.key.shortDescription)  [\(info.scope)]  \(info.site)"
        + (notes.isEmpty ? "" : "  (\(notes.joined(separator: "; ")))"))
    guard !repeated else { return true }
    var complete = true
    let edges = graph.edges(from: node)
    for (offset, edge) in edges.enumerated() {
      let last = offset == edges.count - 1
      let branch = childPrefix + (last ? "└─ " : "├─ ")
      let below = childPrefix + (last ? "   " : "│  ")
      let optional = edge.isOptional ? "optional; " : ""
      let deferred = edge.deferral.map { " (\(Self.phrase($0)))" } ?? ""
      guard let target = edge.to else {
        let marker = edge.isOptional ? "optional; not registered" : "✗ not registered"
        if !edge.isOptional { complete = false }
        lines.append("\(branch)\(edge.key.shortDescription)  (\(marker))")
        continue
      }
      if edge.isDeferred, path.contains(target) || target == node {
        lines.append("\(branch)\(edge.key.shortDescription)\(deferred)  (back to it, after construction)")
        continue
      }
      if path.contains(target) || target == node {
        complete = false
        lines.append("\(branch)\(edge.key.shortDescription)  (\(optional)✗ cycle back to it)")
        continue
      }
      let before = lines.count
      complete =
        describe(target, prefix: branch, childPrefix: below, path: path + [node], seen: &seen, into: &lines)
        && complete
      if edge.isOptional, before < lines.count { lines[before] += "  (optional)" }
      if edge.isDeferred, before < lines.count { lines[before] += " \(deferred)" }
    }
    return complete
  }

  /// How a deferred edge is reached: `lazy`, `provider`, `after init`.
  private static func phrase(_ kind: DeferredDependency.Kind) -> String {
    switch kind {
    case .lazy: "lazy"
    case .provider: "provider"
    case .afterInit: "after init"
    }
  }

  /// Why each other registration of the type was not chosen.
  private func otherCandidates(request: ServiceKey?, identities: [TypeIdentity]) -> [String] {
    var reasons: [String] = []
    let chosenKey = request.flatMap { graph.provider(of: $0) }.map { graph.nodes[$0].key }
    let identity = request?.service
    for node in graph.nodes where node.key.service.name == typeName && node.key != chosenKey {
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
      } else {
        reasons.append("\(site): unnamed, and the request is for the name \"\(name ?? "")\"")
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
      let active = deployment.profile.map { "the active profile is '\($0.name)'" } ?? "no profile is active"
      reasons.append(
        "\(info.key.shortDescription) at \(info.site): registered only for profile "
          + "\(info.profiles?.description ?? "?"); \(active)")
    }
    for probe in checker.probes {
      for registration in probe.registrations where registration.type == typeName {
        let display = TypeQuery.bareName(typeName) + (registration.name.map { " named \"\($0)\"" } ?? "")
        reasons.append(
          "\(display) at \(registration.file):\(registration.line) in plugin \(probe.entry.name): "
            + checker.notLoaded(probe.entry))
      }
    }
    return reasons
  }
}
