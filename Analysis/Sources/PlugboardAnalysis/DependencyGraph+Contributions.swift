import PlugboardKit

extension DependencyGraph {
  /// The available contribution nodes of each extension point, by its
  /// contract's identity, in the order `resolveAll` makes them (declared
  /// order, then registration order): where a `Contributions<T>`
  /// dependency's edge leads (see ``ServiceKey/isExtensionPoint``).
  public static func contributors(of nodes: [Node], in container: Container) -> [ObjectIdentifier: [Int]] {
    var found: [ObjectIdentifier: [(order: Int, sequence: Int, node: Int)]] = [:]
    for node in nodes where node.isAvailable && node.key.isContribution {
      guard let contribution = container.contribution(of: node.key) else { continue }
      found[contribution.contract.id, default: []].append(
        (contribution.order, contribution.sequence, node.index))
    }
    return found.mapValues { list in
      list.sorted { ($0.order, $0.sequence) < ($1.order, $1.sequence) }.map(\.node)
    }
  }

  /// The edges of `node`'s dependency on the extension point `key`: one
  /// required edge to each contribution, since resolving the
  /// `Contributions` makes every one of them; when nothing contributes,
  /// the one optional edge to the empty extension point.
  static func extensionPointEdges(from node: Int, key: ServiceKey, contributors: [Int], keys: [ServiceKey])
    -> [Edge]
  {
    guard !contributors.isEmpty else { return [Edge(from: node, key: key, isOptional: true, to: nil)] }
    return contributors.map { Edge(from: node, key: keys[$0], isOptional: false, to: $0) }
  }
}
