import PlugboardKit

/// A deployment's registrations as a graph, built without running a single
/// factory: each registration that serves its key is a node, and its
/// declared dependencies are its edges.
///
/// Dependencies are what a registration *declares*: `.dependsOn(...)`,
/// `.optionallyDependsOn(...)`, the parameters of an `autoregister`
/// initializer (a `Lazy`, `Provider` or `initCompleted(resolving:)` edge is
/// deferred: required, but resolved after construction), or the target of a
/// forwarded type. A closure factory that declares nothing has unknown edges
/// (``Node/declaresDependencies`` is false); one that resolves more than it
/// declares, passes runtime arguments, or computes a name at run time has
/// edges this graph cannot see. That is the price of never running
/// application code during a check; `Docs/checking.md` states it.
///
/// Edges are resolved by the container's own rules: the same type identity,
/// the same name and argument types, and a profile's choice of named
/// registration for unnamed requests.
struct DependencyGraph {
  /// One registration that serves its key.
  struct Node {
    let index: Int
    let info: RegistrationInfo
    /// False for registrations made by a plugin that then failed to
    /// assemble: they sit in the container, but the deployment is not run.
    let isAvailable: Bool

    var key: ServiceKey { info.key }
    var plugin: String? { info.site.plugin }
    var declaresDependencies: Bool { info.dependencies != nil }
  }

  /// One declared dependency of a node, and the node that serves it.
  struct Edge: Hashable {
    let from: Int
    let key: ServiceKey
    let isOptional: Bool
    /// How the dependency is reached after construction (`Lazy`,
    /// `Provider`, `initCompleted`); `nil` for one the factory resolves
    /// while constructing.
    let deferral: DeferredDependency.Kind?
    /// The available node serving `key`, if any.
    let to: Int?

    init(from: Int, key: ServiceKey, isOptional: Bool, deferral: DeferredDependency.Kind? = nil, to: Int?) {
      self.from = from
      self.key = key
      self.isOptional = isOptional
      self.deferral = deferral
      self.to = to
    }

    /// Whether the edge is followed only after construction, so it cannot
    /// close a construction cycle.
    var isDeferred: Bool { deferral != nil }
  }

  let nodes: [Node]
  /// The registration of the `Application` that `plugboard run` resolves.
  let root: Int?
  private let byKey: [ServiceKey: Int]
  private let selectedNames: [ObjectIdentifier: String]

  /// The graph of `container`'s registrations; those attributed to a plugin
  /// in `failedPlugins` are kept as unavailable nodes.
  init(container: Container, failedPlugins: Set<String>) {
    // plugboard's default Logger last, so the plugins' registrations keep
    // their numbers (n0, n1, …) whether or not something uses it.
    let registrations = container.registrations
    let ordered =
      registrations.filter { !DefaultLogger.isDefault($0.site) }
      + registrations.filter { DefaultLogger.isDefault($0.site) }
    let nodes = ordered.enumerated().map { index, info in
      Node(
        index: index, info: info,
        isAvailable: !(info.site.plugin.map(failedPlugins.contains) ?? false))
    }
    self.nodes = nodes
    var byKey: [ServiceKey: Int] = [:]
    for node in nodes where node.isAvailable { byKey[node.key] = node.index }
    self.byKey = byKey
    var selectedNames: [ObjectIdentifier: String] = [:]
    for selection in container.selections { selectedNames[selection.service.id] = selection.name }
    self.selectedNames = selectedNames
    self.root = byKey[Self.applicationKey]
  }

  /// The key `plugboard run` resolves.
  static let applicationKey = ServiceKey((any Application).self)

  /// The available node a request for `key` gets, as the container would
  /// answer it.
  func provider(of key: ServiceKey) -> Int? {
    byKey[servingKey(for: key)]
  }

  /// The key that serves a request: unnamed requests for a service whose
  /// named registration a profile chose are served by that name.
  func servingKey(for key: ServiceKey) -> ServiceKey {
    guard key.name == nil, key.arguments.isEmpty, let name = selectedNames[key.service.id] else {
      return key
    }
    return ServiceKey(service: key.service, name: name, arguments: key.arguments)
  }

  /// The unavailable node (of a plugin that failed) that would serve `key`.
  func unavailableProvider(of key: ServiceKey) -> Int? {
    let wanted = servingKey(for: key)
    return nodes.first { !$0.isAvailable && $0.key == wanted }?.index
  }

  /// The declared dependencies of `node`, required ones first, then
  /// optional and deferred ones, each with the node serving it.
  func edges(from node: Int) -> [Edge] {
    let info = nodes[node].info
    let required = (info.dependencies ?? []).map {
      Edge(from: node, key: $0, isOptional: false, to: provider(of: $0))
    }
    let optional = info.optionalDependencies.map {
      Edge(from: node, key: $0, isOptional: true, to: provider(of: $0))
    }
    let deferred = info.deferredDependencies.map {
      Edge(from: node, key: $0.key, isOptional: false, deferral: $0.kind, to: provider(of: $0.key))
    }
    return required + optional + deferred
  }

  /// Breadth first from `start` over edges that have a provider: every
  /// node reached, in the order reached, with the node it was first reached
  /// from, so the chain to each is a shortest one.
  func reach(from start: Int) -> (order: [Int], parent: [Int: Int]) {
    var order = [start]
    var parent: [Int: Int] = [:]
    var seen: Set<Int> = [start]
    var next = 0
    while next < order.count {
      let current = order[next]
      next += 1
      for edge in edges(from: current) {
        guard let target = edge.to, seen.insert(target).inserted else { continue }
        parent[target] = current
        order.append(target)
      }
    }
    return (order, parent)
  }

  /// The nodes from the start of a ``reach(from:)`` down to `node`.
  func chain(to node: Int, parent: [Int: Int]) -> [Int] {
    var chain = [node]
    var current = node
    while let previous = parent[current] {
      chain.insert(previous, at: 0)
      current = previous
    }
    return chain
  }
}
