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
/// seen; the hooks of services with no path between them keep registration
/// order, and so do those on a cycle of deferred edges (`Lazy`, `Provider`),
/// which `check` accepts.
struct LifecyclePlan {
  /// A registration that cannot carry hooks, and why.
  struct Refusal: Sendable, CustomStringConvertible {
    let service: LifecycleService
    let reason: String

    var description: String {
      let site = service.registration.site
      let owner = site.plugin.map { "plugin '\($0)': " } ?? ""
      return
        "\(owner)\(service.key.shortDescription) (\(site.fileID):\(site.line)) has a start or stop hook, "
        + "but \(reason); register it .inObjectScope(.container)"
    }
  }

  /// Start order; stop order is its reverse.
  let services: [LifecycleService]
  /// Hooked registrations that cannot take part; `run` refuses to start.
  let refusals: [Refusal]

  /// - Parameter graph: the container's graph, when the caller has it.
  init(container: Container, graph: DependencyGraph? = nil) {
    let graph = graph ?? DependencyGraph(container: container, failedPlugins: [])
    var hooked: [(service: LifecycleService, node: Int)] = []
    var refusals: [Refusal] = []
    for service in container.lifecycleServices {
      // A registration a profile's choice replaces serves no request:
      // nothing to start.
      guard let node = graph.provider(of: service.key), graph.nodes[node].key == service.key else { continue }
      if let reason = service.unsupportedReason {
        refusals.append(Refusal(service: service, reason: reason))
      } else {
        hooked.append((service, node))
      }
    }
    self.refusals = refusals
    self.services = Self.order(hooked, in: graph)
  }

  /// A stable topological order: repeatedly the first remaining service
  /// (in registration order) none of whose hooked dependencies remain.
  private static func order(
    _ hooked: [(service: LifecycleService, node: Int)], in graph: DependencyGraph
  ) -> [LifecycleService] {
    let hookedNodes = Set(hooked.map(\.node))
    var needs: [Int: Set<Int>] = [:]
    for entry in hooked {
      needs[entry.node] = Set(graph.reach(from: entry.node).order.dropFirst()).intersection(hookedNodes)
    }
    var remaining = hooked
    var placed: Set<Int> = []
    var ordered: [LifecycleService] = []
    while !remaining.isEmpty {
      let ready =
        remaining.firstIndex { needs[$0.node, default: []].isSubset(of: placed.union([$0.node])) } ?? 0
      let next = remaining.remove(at: ready)
      placed.insert(next.node)
      ordered.append(next.service)
    }
    return ordered
  }
}
