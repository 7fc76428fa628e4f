import PlugboardAnalysis
import PlugboardKit

/// The dependency graph as `plugboard graph` draws it: a node per
/// registration, grouped by plugin; a node per dependency nothing serves;
/// an edge per declared dependency, marked optional or part of a cycle.
/// The DOT, Mermaid and JSON renderings are all made from it.
package struct GraphModel: Sendable, Encodable {
  package struct Node: Sendable, Encodable {
    package let id: String
    /// The fully qualified service type.
    package let type: String
    /// `AuthService` or `AuthService "Mock"`.
    package let label: String
    package let name: String?
    package let scope: String?
    package let plugin: String?
    package let file: String?
    package let line: Int?
    package let status: Status
    /// For a shadowed node: the registration that replaced it
    /// (`file:line in plugin P`).
    package var shadowedBy: String? = nil
    /// For a contribution: its extension point and declared order.
    package var contribution: ContributionMark? = nil
    /// For a decorator: the registration it decorates and its declared order.
    package var decorator: DecoratorMark? = nil
  }

  /// What a node stands for; in JSON, the case's name.
  package enum Status: String, Sendable, Encodable {
    case registered
    /// A dependency nothing registers.
    case missing
    /// A registration of a plugin that failed.
    case failed
    /// A registration a later one of the same key replaced.
    case shadowed
  }

  package struct Edge: Sendable, Encodable {
    /// How the dependency is reached, which the renderings draw apart:
    /// a forwarded type leads to the registration that makes its
    /// instance; a deferred edge (`Lazy`, `Provider`, `initCompleted`) is
    /// followed only after construction, so it never closes a cycle; a
    /// contribution edge leads from a `Contributions<T>` dependency to one
    /// of the contributions to `T`; a decorator edge leads from a
    /// registration to a decorator that wraps its instance.
    package enum Kind: String, Sendable, Encodable {
      case dependency, forwarded, lazy, provider, afterInit, contribution, decorator
    }
    package let from: String
    package let to: String
    package let optional: Bool
    package let cycle: Bool
    package var kind: Kind = .dependency
  }

  package struct Cluster: Sendable, Encodable {
    package let plugin: String
    package let nodes: [String]
  }

  package let nodes: [Node]
  package let edges: [Edge]
  /// The plugins with registrations, in load order.
  package let plugins: [Cluster]

  /// The graph of `deployment`'s declared dependencies.
  package init(_ deployment: Deployment) {
    let graph = DependencyGraph(
      container: deployment.container,
      failedPlugins: Set(
        deployment.outcomes.compactMap { outcome -> String? in
          guard case .failed(let entry, _) = outcome else { return nil }
          return entry.name
        }), placingLast: DefaultLogger.isDefault)
    var nodes = Self.registeredNodes(of: graph, in: deployment.container)
    edges = Self.edges(of: graph, addingMissingTo: &nodes)
    nodes += Self.shadowedNodes(of: deployment.container)
    self.nodes = nodes
    plugins = Self.clusters(of: nodes, outcomes: deployment.outcomes)
  }

  /// A node for each registration, but plugboard's default Logger only
  /// when something uses it.
  private static func registeredNodes(of graph: DependencyGraph, in container: Container) -> [Node] {
    let used = Set(graph.nodes.flatMap { graph.edges(from: $0.index).compactMap(\.to) })
    let drawn = graph.nodes.filter { !DefaultLogger.isDefault($0.info.site) || used.contains($0.index) }
    return drawn.map { node in
      var drawn = Node(
        id: "n\(node.index)", type: node.key.service.name, label: Self.label(node.key),
        name: Self.name(node.key), scope: node.info.scopeName, plugin: node.plugin,
        file: node.info.site.fileID, line: node.info.site.line,
        status: node.isAvailable ? .registered : .failed)
      drawn.contribution = ContributionMark.of(node.key, in: container)
      drawn.decorator = DecoratorMark.of(node.key, in: container)
      return drawn
    }
  }

  /// Every dependency as an edge, those closing a cycle marked; a required
  /// dependency nothing registers gets one `missing` node per key,
  /// appended to `nodes`.
  private static func edges(of graph: DependencyGraph, addingMissingTo nodes: inout [Node]) -> [Edge] {
    let cycleEdges = CycleFinder.edges(of: CycleFinder.cycles(in: graph))
    var missing: [ServiceKey: String] = [:]
    var edges: [Edge] = []
    for node in graph.nodes {
      for edge in graph.edges(from: node.index) {
        let kind = Self.kind(of: edge, from: node)
        if let target = edge.to {
          edges.append(
            Edge(
              from: "n\(node.index)", to: "n\(target)", optional: edge.isOptional,
              cycle: cycleEdges.contains([node.index, target]), kind: kind))
        } else if !edge.isOptional {
          let id = missing[edge.key] ?? "m\(missing.count)"
          if missing.updateValue(id, forKey: edge.key) == nil {
            nodes.append(
              Node(
                id: id, type: edge.key.service.name, label: Self.label(edge.key), name: Self.name(edge.key),
                scope: nil, plugin: nil, file: nil, line: nil, status: .missing))
          }
          edges.append(Edge(from: "n\(node.index)", to: id, optional: false, cycle: false, kind: kind))
        }
      }
    }
    return edges
  }

  /// A registration a later one replaced serves nothing, so it has no
  /// edges; it is drawn all the same, so the graph shows both plugins.
  private static func shadowedNodes(of container: Container) -> [Node] {
    container.duplicateRegistrations.enumerated().compactMap { index, duplicate in
      let replaced = duplicate.replaced
      guard !DefaultLogger.isDefault(replaced) else { return nil }
      return Node(
        id: "s\(index)", type: duplicate.key.service.name, label: Self.label(duplicate.key),
        name: Self.name(duplicate.key), scope: nil, plugin: replaced.plugin, file: replaced.fileID,
        line: replaced.line, status: .shadowed, shadowedBy: duplicate.winner.description)
    }
  }

  /// Each plugin's nodes, in the order of the outcomes rather than the
  /// manifest's list: they hold the plugins found in drop-in folders too,
  /// in load order.
  private static func clusters(of nodes: [Node], outcomes: [PluginOutcome]) -> [Cluster] {
    // One pass over the nodes, not one per plugin: at 1,000 plugins of
    // 20 registrations the per-plugin filter was most of `graph`'s time.
    var members: [String: [String]] = [:]
    for node in nodes where node.status != .missing {
      if let plugin = node.plugin { members[plugin, default: []].append(node.id) }
    }
    var seen = Set<String>()
    return outcomes.map(\.entry.name).filter { seen.insert($0).inserted }.compactMap { name in
      members[name].map { Cluster(plugin: name, nodes: $0) }
    }
  }

  /// What the renderings draw, in their order: each plugin's cluster with
  /// its nodes, then the nodes of no cluster (missing ones, and any
  /// registration made outside a plugin). Linear in the nodes: a lookup
  /// of each clustered node by a scan of all of them made the DOT and
  /// Mermaid renderings quadratic.
  package var drawing: (clusters: [(plugin: String, nodes: [Node])], unclustered: [Node]) {
    let byID = Dictionary(nodes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    let clusters = plugins.map { cluster in (cluster.plugin, cluster.nodes.compactMap { byID[$0] }) }
    let clustered = Set(plugins.flatMap(\.nodes))
    return (clusters, nodes.filter { !clustered.contains($0.id) })
  }

  /// The node called `id`, by a scan: for looking one up, not for drawing
  /// them all (``drawing``).
  package func node(_ id: String) -> Node? { nodes.first { $0.id == id } }

  private static func kind(of edge: DependencyGraph.Edge, from node: DependencyGraph.Node) -> Edge.Kind {
    switch edge.deferral {
    case .lazy: .lazy
    case .provider: .provider
    case .afterInit: .afterInit
    // Deferred in a way this host does not draw apart: still no part of a
    // cycle, as every deferral.
    case .some: .lazy
    case nil:
      node.info.forwardsTo == edge.key
        ? .forwarded
        : edge.key.isContribution ? .contribution : edge.key.isDecorator ? .decorator : .dependency
    }
  }

  /// A key's name as drawn: the name its author gave it; an extension
  /// point, every contribution, has none.
  private static func name(_ key: ServiceKey) -> String? {
    key.isExtensionPoint ? nil : key.name
  }

  private static func label(_ key: ServiceKey) -> String {
    guard !key.isContribution, !key.isExtensionPoint, !key.isDecorator else { return key.shortDescription }
    var label = key.service.shortName
    if let name = key.name { label += " \"\(name)\"" }
    if !key.arguments.isEmpty { label += " (\(key.arguments.map(\.shortName).joined(separator: ", ")))" }
    return label
  }
}
