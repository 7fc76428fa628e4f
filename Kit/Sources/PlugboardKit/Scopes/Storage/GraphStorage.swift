/// Keeps its instance for the rest of one object graph, as Swinject's
/// `GraphStorage`: within a top-level resolution (or a
/// ``Container/withObjectGraph(_:closure:)``), requests share it; a new
/// graph makes a new one. Instances of earlier graphs are held weakly,
/// so one is found again in its graph while something still holds it.
public final class GraphStorage: InstanceStorage {
  private var graphs: [GraphIdentifier: Held] = [:]

  /// The instance of the graph that set it last, until that graph's
  /// resolution ends.
  public var instance: Any?

  public init() {}

  public func graphResolutionCompleted() {
    instance = nil
    graphs = graphs.filter { $0.value.instance != nil }
  }

  public func instance(inGraph graph: GraphIdentifier) -> Any? {
    graphs[graph]?.instance
  }

  public func setInstance(_ instance: Any?, inGraph graph: GraphIdentifier) {
    self.instance = instance
    graphs[graph] = Held(instance)
  }

  /// An instance held weakly when it is an object; a value type only
  /// while its graph's resolution runs (``instance``).
  private struct Held {
    weak var object: AnyObject?
    init(_ instance: Any?) { object = instance.flatMap(WeakStorage.reference) }
    var instance: Any? { object }
  }
}
