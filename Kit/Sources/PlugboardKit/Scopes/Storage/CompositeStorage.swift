/// Several storages as one, as Swinject's `CompositeStorage`: reading
/// finds the first that keeps an instance, writing writes them all. A
/// scope with a `parent` keeps its instances in its own storage composed
/// with the parent's, so `.weak` is `CompositeStorage([WeakStorage(),
/// GraphStorage()])`.
public final class CompositeStorage: InstanceStorage {
  private let components: [any InstanceStorage]

  public init(_ components: [any InstanceStorage]) {
    self.components = components
  }

  public var instance: Any? {
    get { components.lazy.compactMap(\.instance).first }
    set { for component in components { component.instance = newValue } }
  }

  public func graphResolutionCompleted() {
    for component in components { component.graphResolutionCompleted() }
  }

  public func instance(inGraph graph: GraphIdentifier) -> Any? {
    components.lazy.compactMap { $0.instance(inGraph: graph) }.first
  }

  public func setInstance(_ instance: Any?, inGraph graph: GraphIdentifier) {
    for component in components { component.setInstance(instance, inGraph: graph) }
  }
}
