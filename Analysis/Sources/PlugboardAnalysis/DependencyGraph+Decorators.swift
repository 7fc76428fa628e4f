import PlugboardKit

extension DependencyGraph {
  /// The available decorator nodes of each decorated registration (its
  /// type and name, without arguments), in the order they apply.
  static func decorators(of nodes: [Node], in container: Container) -> [ServiceKey: [Int]] {
    var found: [ServiceKey: [(order: Int, sequence: Int, node: Int)]] = [:]
    for node in nodes where node.isAvailable && node.key.isDecorator {
      guard let decorator = container.decorator(of: node.key) else { continue }
      found[decorator.target, default: []].append((decorator.order, decorator.sequence, node.index))
    }
    return found.mapValues { list in
      list.sorted { ($0.order, $0.sequence) < ($1.order, $1.sequence) }.map(\.node)
    }
  }

  /// The edges from a decorated registration to its decorators: making
  /// its instance runs each of them, so what they need is needed, and a
  /// decorator that needs the registration it decorates closes a cycle.
  /// A named registration a profile chose to serve its type's unnamed
  /// requests (`selectedName`) is decorated as the unnamed one too.
  static func decoratorEdges(
    from node: Int, key: ServiceKey, decorators: [ServiceKey: [Int]], nodes: [Node], selectedName: String?
  ) -> [Edge] {
    // Decorators wrap services only: not one another, nor contributions.
    guard key.role == .service else { return [] }
    var list = decorators[ServiceKey(service: key.service, name: key.name)] ?? []
    if let name = key.name, name == selectedName {
      list += decorators[ServiceKey(service: key.service)] ?? []
    }
    return list.map { Edge(from: node, key: nodes[$0].key, isOptional: false, to: $0) }
  }
}
