import PlugboardKit

extension GraphAnalysis {
  /// Registrations whose factories declare nothing: the check cannot see
  /// what they resolve, so it says so rather than pass them silently.
  public func undeclaredDependencies() -> [Finding] {
    graph.nodes.filter { $0.isAvailable && !$0.declaresDependencies }.map { node in
      let name = node.key.shortDescription
      return Finding(
        .warning, .undeclaredDependencies,
        title: "\(name) does not declare its dependencies; check cannot see past it",
        explanation: [
          "Its factory, registered at \(node.info.site), is a closure that declares nothing, so "
            + "whatever it resolves is not checked."
        ],
        action: "Declare what the factory resolves with .dependsOn(...) (and .optionallyDependsOn(...) "
          + "for what it resolves if registered), or register it with autoregister("
          + "\(node.key.service.metatypeSpelling), initializer: ...); a factory that resolves nothing can use autoregister too."
      )
    }
  }
}
