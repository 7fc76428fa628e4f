import PlugboardKit

extension GraphAnalysis {
  /// Every required dependency nothing available serves, each reported
  /// once, with the shortest chain from the `Application` when the
  /// registration is reachable from it, and from the registration itself
  /// otherwise (a plugin may register more than the application uses; it
  /// is checked all the same).
  public func missingDependencies(_ hooks: ValidationHooks = ValidationHooks()) -> [Finding] {
    var findings: [Finding] = []
    // By index: copying or hashing thousands of nodes costs more than the walk.
    var examined = [Bool](repeating: false, count: graph.nodes.count)
    // One breadth-first walk per start, over the nodes no earlier walk
    // examined: everything an examined node reaches was examined with it,
    // so no shortest chain to a new node passes through one, and the walk
    // finds the shortest chains a walk over every node would. Each node
    // is walked once, and the buffers are the graph's size once, not per
    // start: a container with no `Application` (a unit test's) starts
    // from most of its registrations.
    var parent = [Int?](repeating: nil, count: graph.nodes.count)
    var order: [Int] = []
    let starts = (graph.root.map { [$0] } ?? []) + graph.nodes.indices.filter { graph.nodes[$0].isAvailable }
    for start in starts where !examined[start] {
      order.removeAll(keepingCapacity: true)
      order.append(start)
      examined[start] = true
      parent[start] = nil
      var next = 0
      while next < order.count {
        let current = order[next]
        next += 1
        for edge in graph.edges(from: current) {
          guard let target = edge.to, !examined[target] else { continue }
          examined[target] = true
          parent[target] = current
          order.append(target)
        }
      }
      for node in order {
        for edge in graph.edges(from: node) where !edge.isOptional && edge.to == nil {
          let chain = graph.chain(to: node, parent: parent).map {
            ChainStep(graph.nodes[$0].info, marker: graph.nodes[$0].ancestry)
          }
          findings.append(missing(edge, chain: chain, reachable: start == graph.root, hooks: hooks))
        }
      }
    }
    return findings
  }

  /// The finding for one unserved edge: what the deployment knows of it
  /// (a module loaded twice, a provider in a plugin that failed or is not
  /// loaded), or that nothing registers it.
  private func missing(
    _ edge: DependencyGraph.Edge, chain: [ChainStep], reachable: Bool, hooks: ValidationHooks
  )
    -> Finding
  {
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
    let suggestions = suggestions(for: key)
    if let finding = hooks.unserved(edge, chain, unreachable, suggestions) { return finding }
    var explanation = [
      "\(key) is \(dependency), and no loaded plugin registers it."
    ]
    explanation += inactiveNotes(for: key) + hooks.missingNotes() + unreachable
    return Finding(
      .error, .missingDependency,
      title: "\(requester.key.shortDescription) needs \(key.shortDescription), which nothing registers",
      explanation: explanation,
      chain: chain + [ChainStep(key: key, site: nil, scope: nil, marker: "✗ not registered")],
      suggestions: suggestions.map(\.description),
      action: Suggestion.declaredTwiceAction(for: key, among: suggestions)
        ?? "Register \(key.shortDescription) in a plugin the deployment loads, for example "
        + "container.register(\(MetatypeSpelling.registration(key))) { r in ... }, or correct the dependency "
        + "\(declared).",
      missingKey: key)
  }

  /// How the requester depends on the key, for "X is …": "a dependency
  /// declared at …", "a lazy dependency declared at …", "the registration
  /// Starter is forwarded to (at …)".
  public static func relation(of edge: DependencyGraph.Edge, requester: RegistrationInfo) -> String {
    if requester.forwardsTo == edge.key {
      return "the registration \(requester.key.shortDescription) is forwarded to (at \(requester.site))"
    }
    let kind: String
    let async = edge.isAwaited ? "Async" : ""
    switch edge.deferral {
    case .lazy: kind = "a lazy dependency (\(async)Lazy)"
    case .provider: kind = "a deferred dependency (\(async)Provider)"
    case .afterInit: kind = "a dependency resolved after construction (initCompleted)"
    case nil: kind = "a dependency"
    @unknown default: kind = "a deferred dependency (\(edge.deferral.map { "\($0)" } ?? "?"))"
    }
    return "\(kind) declared at \(requester.site)"
  }

  /// Registrations of `key`'s type that the active profile leaves out.
  public func inactiveNotes(for key: ServiceKey) -> [String] {
    inventories[0].inactive.filter { $0.key.service == key.service }.compactMap { info in
      guard let profiles = info.profiles else { return nil }
      let active = profile.map { "the active profile is '\($0)'" } ?? "no profile is active"
      return "\(info.key.shortDescription) is registered only for profile \(profiles) "
        + "(at \(info.site)); \(active)."
    }
  }
}
