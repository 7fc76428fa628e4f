import PlugboardKit

/// A container's registrations as a graph, built without running a single
/// factory: each registration that serves its key is a node, and its
/// declared dependencies are its edges. ``Container/check(profile:requireApplication:configurations:)`` and
/// `plugboard check` analyse it; `plugboard graph` and `explain` draw it.
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
/// ```swift
/// let graph = DependencyGraph(container: container, failedPlugins: [])
/// for edge in graph.edges(from: 0) where edge.to == nil && !edge.isOptional {
///   print("nothing serves", edge.key)
/// }
/// ```
///
/// Edges are resolved by the container's own rules: the same type identity,
/// the same name and argument types, and a profile's choice of named
/// registration for unnamed requests. A `Contributions<T>` dependency has
/// an edge to each contribution to `T`, whose key is the contribution's.
public struct DependencyGraph {
  /// One registration that serves its key.
  public struct Node: Sendable {
    /// The node's position in ``DependencyGraph/nodes``.
    public let index: Int
    public let info: RegistrationInfo
    /// False for registrations made by a plugin that then failed to
    /// assemble: they sit in the container, but the deployment is not run.
    public let isAvailable: Bool
    /// How many containers up the registration is (1: the parent's), for
    /// one an ancestor serves a dependency with; 0 for the container's own.
    /// Only the ancestors' registrations that something here reaches are
    /// nodes: the parent's other problems are the parent's to check.
    public var ancestorLevel: Int = 0

    /// Where an ancestor's registration sits, for its link in a chain:
    /// "in the parent container"; nil for the container's own.
    public var ancestry: String? {
      switch ancestorLevel {
      case 0: nil
      case 1: "in the parent container"
      default: "in an ancestor container, \(ancestorLevel) levels up"
      }
    }

    public var key: ServiceKey { info.key }
    /// The plugin that made the registration, when one did.
    public var plugin: String? { info.site.plugin }
    /// False for a closure factory that declares nothing: its edges are unknown.
    public var declaresDependencies: Bool { info.dependencies != nil }
  }

  /// One declared dependency of a node, and the node that serves it.
  public struct Edge: Hashable, Sendable {
    /// The node that declares the dependency.
    public let from: Int
    /// The key it asks for.
    public let key: ServiceKey
    /// Declared with `.optionallyDependsOn(...)` (or a `Contributions`
    /// dependency nothing contributes to): nothing breaks when unserved.
    public let isOptional: Bool
    /// How the dependency is reached after construction (`Lazy`,
    /// `Provider`, `initCompleted`); `nil` for one the factory resolves
    /// while constructing.
    public let deferral: DeferredDependency.Kind?
    /// The available node serving `key`, if any.
    public let to: Int?
    /// Whether the deferred dependency is read with `await` (``AsyncLazy``,
    /// ``AsyncProvider``): an async registration serves it even to a
    /// synchronous factory.
    public let isAwaited: Bool

    init(
      from: Int, key: ServiceKey, isOptional: Bool, deferral: DeferredDependency.Kind? = nil,
      isAwaited: Bool = false, to: Int?
    ) {
      self.from = from
      self.key = key
      self.isOptional = isOptional
      self.deferral = deferral
      self.isAwaited = isAwaited
      self.to = to
    }

    /// Whether the dependent keeps what the edge resolves for as long as it
    /// lives: made with it, or through a `Lazy` (resolved once) or an
    /// `initCompleted` handler; not through a `Provider`, which resolves
    /// anew on every read.
    public var isCaptured: Bool { deferral != .provider }

    /// Whether the edge is followed only after construction, so it cannot
    /// close a construction cycle.
    public var isDeferred: Bool { deferral != nil }
  }

  /// Every registration that serves its key, in registration order.
  public let nodes: [Node]
  /// The registration of the `Application` that `plugboard run` resolves.
  public let root: Int?
  private let byKey: [ServiceKey: Int]
  private let selectedNames: [ObjectIdentifier: String]
  /// The edges of each node, by index (``edges(from:)``).
  private let adjacency: [[Edge]]

  /// The graph of `container`'s registrations; those attributed to a plugin
  /// in `failedPlugins` are kept as unavailable nodes, and so are those of
  /// a failed optional plugin, which the container no longer serves
  /// (``Container/withdrawnRegistrations``), whatever the caller passes.
  /// Registrations at a site `placingLast` accepts come after the others,
  /// so the others keep their numbers whether or not those exist.
  public init(
    container: Container, failedPlugins: Set<String>,
    placingLast: (RegistrationSite) -> Bool = { _ in false }
  ) {
    self.init(
      container: container, registrations: container.registrations, failedPlugins: failedPlugins,
      placingLast: placingLast)
  }

  /// The graph of `registrations`, the container's in the profile checked,
  /// with its withdrawn ones unavailable; `ancestors` are the parents'
  /// registrations in the same profile, nearest first, which serve what
  /// the container does not, as they do when it resolves.
  init(
    container: Container, registrations: [RegistrationInfo], failedPlugins: Set<String>,
    placingLast: (RegistrationSite) -> Bool, ancestors: [RegistrationInventory] = []
  ) {
    let withdrawn = container.withdrawnRegistrations
    self.init(
      container: container, all: registrations + withdrawn,
      failedPlugins: failedPlugins.union(withdrawn.compactMap(\.site.plugin)), placingLast: placingLast,
      ancestors: ancestors)
  }

  /// The graph of `registrations`, `container`'s own, for a caller that
  /// already holds them: a container makes the list afresh at each call.
  private init(
    container: Container, all registrations: [RegistrationInfo], failedPlugins: Set<String>,
    placingLast: (RegistrationSite) -> Bool, ancestors: [RegistrationInventory] = []
  ) {
    var nodes = Self.nodes(of: registrations, failedPlugins: failedPlugins, placingLast: placingLast)
    var byKey: [ServiceKey: Int] = [:]
    byKey.reserveCapacity(nodes.count)
    for index in nodes.indices where nodes[index].isAvailable { byKey[nodes[index].key] = index }
    var selectedNames: [ObjectIdentifier: String] = [:]
    for selection in container.selections { selectedNames[selection.service.id] = selection.name }
    self.byKey = byKey
    self.selectedNames = selectedNames
    self.root = byKey[Self.applicationKey]
    self.adjacency = Self.adjacency(
      of: &nodes, in: container, byKey: byKey, selectedNames: selectedNames,
      inherited: InheritedNodes(ancestors: ancestors))
    self.nodes = nodes
  }

  /// A node per registration, available unless its plugin failed, those at
  /// a site `placingLast` accepts (plugboard's default Logger) last, so that
  /// the plugins' registrations keep their numbers (n0, n1, …) whether or
  /// not something uses it. Each is read in place and copied once, into
  /// its node: there are thousands.
  private static func nodes(
    of registrations: [RegistrationInfo], failedPlugins: Set<String>, placingLast: (RegistrationSite) -> Bool
  ) -> [Node] {
    var nodes: [Node] = []
    nodes.reserveCapacity(registrations.count)
    func add(_ index: Int) {
      let plugin = registrations[index].site.plugin
      nodes.append(
        Node(
          index: nodes.count, info: registrations[index],
          isAvailable: !(plugin.map(failedPlugins.contains) ?? false)))
    }
    var defaults: [Int] = []
    for index in registrations.indices {
      if placingLast(registrations[index].site) { defaults.append(index) } else { add(index) }
    }
    for index in defaults { add(index) }
    return nodes
  }

  /// Each node's edges. Every analysis walks the edges, most of them
  /// several times (reach, cycles, scopes, optional dependencies): each
  /// node's are found once. An ancestor's registration a dependency
  /// reaches becomes a node at the end of `nodes`, whose own edges are
  /// found in turn.
  private static func adjacency(
    of nodes: inout [Node], in container: Container, byKey: [ServiceKey: Int],
    selectedNames: [ObjectIdentifier: String], inherited: InheritedNodes
  ) -> [[Edge]] {
    var inherited = inherited
    let contributors = Self.contributors(of: nodes, in: container)
    let keys = contributors.isEmpty ? [] : nodes.map(\.key)
    let decorators = Self.decorators(of: nodes, in: container)
    var adjacency: [[Edge]] = []
    adjacency.reserveCapacity(nodes.count)
    var index = 0
    while index < nodes.count {
      let node = nodes[index]
      // A `.container` registration resolves its dependencies in the
      // container that holds it; any other in the one that resolves it.
      let level = node.info.scope == .container ? node.ancestorLevel : 0
      adjacency.append(
        Self.edges(
          from: index, info: node.info,
          provider: { key in
            if level == 0, let own = Self.provider(of: key, byKey: byKey, selectedNames: selectedNames) {
              return own
            }
            return inherited.node(for: key, above: max(level, 1) - 1, into: &nodes)
          },
          extensionPoint: { key in
            Self.extensionPointEdges(
              from: index, key: key, contributors: contributors[key.service.id] ?? [], keys: keys)
          }))
      if !decorators.isEmpty, node.ancestorLevel == 0 {
        adjacency[index] += Self.decoratorEdges(
          from: index, key: node.key, decorators: decorators, nodes: nodes,
          selectedName: selectedNames[node.key.service.id])
      }
      index += 1
    }
    return adjacency
  }

  /// The ancestors' registrations made nodes, each once, as dependencies
  /// reach them.
  private struct InheritedNodes {
    let ancestors: [RegistrationInventory]
    /// Each ancestor's serving registrations by key, and the names its
    /// profile chose, made on first use: a graph asks each ancestor about
    /// many keys.
    private var tables: [(byKey: [ServiceKey: RegistrationInfo], selectedNames: [ObjectIdentifier: String])?]
    /// The node made for a key at a level.
    private var made: [Int: [ServiceKey: Int]] = [:]

    init(ancestors: [RegistrationInventory]) {
      self.ancestors = ancestors
      tables = Array(repeating: nil, count: ancestors.count)
    }

    /// The node of the nearest ancestor from `start` (0: the parent) that
    /// serves `key`, appended to `nodes` the first time; nil when none does.
    mutating func node(for key: ServiceKey, above start: Int, into nodes: inout [Node]) -> Int? {
      for position in ancestors.indices.dropFirst(start) {
        let table = tables[position] ?? makeTable(position)
        let wanted = DependencyGraph.servingKey(for: key, selectedNames: table.selectedNames)
        guard let info = table.byKey[wanted] else { continue }
        let level = position + 1
        if let known = made[level]?[wanted] { return known }
        var node = Node(index: nodes.count, info: info, isAvailable: true)
        node.ancestorLevel = level
        nodes.append(node)
        made[level, default: [:]][wanted] = node.index
        return node.index
      }
      return nil
    }

    private mutating func makeTable(_ position: Int)
      -> (byKey: [ServiceKey: RegistrationInfo], selectedNames: [ObjectIdentifier: String])
    {
      let inventory = ancestors[position]
      var byKey: [ServiceKey: RegistrationInfo] = [:]
      for info in inventory.serving { byKey[info.key] = info }
      var names: [ObjectIdentifier: String] = [:]
      for selection in inventory.selections { names[selection.service.id] = selection.name }
      tables[position] = (byKey, names)
      return (byKey, names)
    }
  }

  /// The key `plugboard run` resolves.
  public static let applicationKey = ServiceKey((any Application).self)

  /// The available node a request for `key` gets, as the container would
  /// answer it.
  public func provider(of key: ServiceKey) -> Int? {
    Self.provider(of: key, byKey: byKey, selectedNames: selectedNames)
  }

  /// The key that serves a request: unnamed requests for a service whose
  /// named registration a profile chose are served by that name.
  public func servingKey(for key: ServiceKey) -> ServiceKey {
    Self.servingKey(for: key, selectedNames: selectedNames)
  }

  private static func provider(
    of key: ServiceKey, byKey: [ServiceKey: Int], selectedNames: [ObjectIdentifier: String]
  ) -> Int? {
    byKey[servingKey(for: key, selectedNames: selectedNames)]
  }

  private static func servingKey(for key: ServiceKey, selectedNames: [ObjectIdentifier: String]) -> ServiceKey
  {
    guard key.role == .service, key.name == nil, key.arguments.isEmpty,
      let name = selectedNames[key.service.id]
    else {
      return key
    }
    return ServiceKey(service: key.service, name: name, arguments: key.arguments)
  }

  /// The unavailable node (of a plugin that failed) that would serve `key`.
  public func unavailableProvider(of key: ServiceKey) -> Int? {
    let wanted = servingKey(for: key)
    return nodes.first { !$0.isAvailable && $0.key == wanted }?.index
  }

  /// The declared dependencies of `node`, required ones first, then
  /// optional and deferred ones, each with the node serving it.
  public func edges(from node: Int) -> [Edge] {
    adjacency[node]
  }

  private static func edges(
    from node: Int, info: RegistrationInfo, provider: (ServiceKey) -> Int?,
    extensionPoint: (ServiceKey) -> [Edge]
  ) -> [Edge] {
    let required = info.dependencies ?? []
    var edges: [Edge] = []
    edges.reserveCapacity(required.count + info.optionalDependencies.count + info.deferredDependencies.count)
    for key in required {
      edges.append(Edge(from: node, key: key, isOptional: false, to: provider(key)))
    }
    for key in info.optionalDependencies {
      // A `Contributions` dependency: an edge to each contribution.
      if key.isExtensionPoint {
        edges += extensionPoint(key)
        continue
      }
      edges.append(Edge(from: node, key: key, isOptional: true, to: provider(key)))
    }
    for dependency in info.deferredDependencies {
      edges.append(
        Edge(
          from: node, key: dependency.key, isOptional: false, deferral: dependency.kind,
          isAwaited: dependency.isAwaited, to: provider(dependency.key)))
    }
    return edges
  }

  /// The nodes from the start of a breadth-first walk down to `node`, by
  /// the node each was first reached from (`parent`, nil for the start).
  func chain(to node: Int, parent: [Int?]) -> [Int] {
    var chain = [node]
    var current = node
    while let previous = parent[current] {
      chain.append(previous)
      current = previous
    }
    return chain.reversed()
  }
}
