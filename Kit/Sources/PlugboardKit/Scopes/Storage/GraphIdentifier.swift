/// One object graph, told apart by identity, as Swinject's
/// `GraphIdentifier`: each top-level resolution is a graph of its own, and
/// ``Container/withObjectGraph(_:closure:)`` runs resolutions in a graph
/// you keep. ``InstanceStorage`` keys graph-scoped instances by it.
public final class GraphIdentifier: Hashable, Sendable {
  /// A new graph.
  public init() {}

  public static func == (lhs: GraphIdentifier, rhs: GraphIdentifier) -> Bool { lhs === rhs }
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
