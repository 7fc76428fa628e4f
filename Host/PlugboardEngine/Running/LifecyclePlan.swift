import PlugboardAnalysis
import PlugboardKit

/// The services with start or stop hooks, in the order they start: a
/// service after every hooked service it depends on.
///
/// The order comes from the registrations' static edges, the dependency
/// graph `plugboard check` validates (``DependencyGraph``), not from the
/// order instances happen to be constructed in: it is known before any
/// hook runs, the same on every run, and what `check` and `explain` show.
/// A dependency reached through services without hooks counts (B → C → A
/// starts A before B). Edges a closure factory does not declare are not
/// seen. Otherwise registration order decides: each hooked service, in
/// registration order, starts right after what it depends on that has not
/// started yet; on a cycle of deferred edges (`Lazy`, `Provider`), which
/// `check` accepts, the service registered first is entered first.
///
/// A hooked registration that cannot carry hooks takes no part: `check`
/// reports it (``GraphAnalysis/lifecycleHookScopes()``), and `run`,
/// which validates first, refuses the deployment.
struct LifecyclePlan {
  /// Start order; stop order is its reverse.
  let services: [LifecycleService]

  /// - Parameter graph: the container's graph, when the caller has it.
  init(container: Container, graph: DependencyGraph? = nil) {
    let services = container.lifecycleServices
    // Most deployments have no hooks: no graph to build for them.
    guard !services.isEmpty else {
      self.services = []
      return
    }
    let graph =
      graph
      ?? DependencyGraph(
        container: container, failedPlugins: [], placingLast: DefaultLogger.isDefault)
    var hooked: [(service: LifecycleService, node: Int)] = []
    for service in services where service.unsupportedReason == nil {
      // A registration a profile's choice replaces serves no request:
      // nothing to start.
      guard let node = graph.provider(of: service.key), graph.nodes[node].key == service.key else { continue }
      hooked.append((service, node))
    }
    self.services = Self.order(hooked, in: graph)
  }

  /// Depth first from each hooked service in registration order, along
  /// declared edges in the order declared, placing a hooked service once
  /// everything it reaches is placed: dependencies first, one pass over
  /// the graph. A node is marked when first entered, so a cycle (only
  /// deferred edges can close one in a healthy deployment) ends there.
  private static func order(
    _ hooked: [(service: LifecycleService, node: Int)], in graph: DependencyGraph
  ) -> [LifecycleService] {
    var serviceAt: [Int: LifecycleService] = [:]
    for entry in hooked { serviceAt[entry.node] = entry.service }
    var entered: Set<Int> = []
    var ordered: [LifecycleService] = []
    // An explicit stack: a long chain of dependencies must not deepen the
    // call stack.
    for root in hooked.map(\.node) where entered.insert(root).inserted {
      var stack: [(node: Int, targets: [Int], next: Int)] = [(root, targets(of: root, in: graph), 0)]
      while let top = stack.last {
        if top.next < top.targets.count {
          stack[stack.count - 1].next += 1
          let target = top.targets[top.next]
          if entered.insert(target).inserted { stack.append((target, targets(of: target, in: graph), 0)) }
        } else {
          stack.removeLast()
          if let service = serviceAt[top.node] { ordered.append(service) }
        }
      }
    }
    return ordered
  }

  private static func targets(of node: Int, in graph: DependencyGraph) -> [Int] {
    graph.edges(from: node).compactMap(\.to)
  }
}
