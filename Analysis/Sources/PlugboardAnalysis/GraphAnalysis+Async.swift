import PlugboardKit

extension GraphAnalysis {
  /// Synchronous registrations that declare a dependency (`dependsOn`, an
  /// `autoregister` parameter, a `Lazy` or `Provider`) on an async one:
  /// their factory resolves it with a synchronous `resolve`, which fails
  /// every time with "registered with an async factory". An `AsyncLazy`
  /// or `AsyncProvider` is read later with `await`: a synchronous factory
  /// only stores it, so that edge is no such dependency.
  public func synchronousDependenciesOnAsync() -> [Finding] {
    synchronousEdges(from: { !$0.isAsync }, to: \.isAsync).map { dependent, _, awaited in
      let (dependentName, awaitedName) = (dependent.key.shortDescription, awaited.key.shortDescription)
      let isolation = awaited.isolation.map { ", isolated to \($0)," } ?? ""
      return unservedDependency(
        .synchronousDependencyOnAsync, of: dependent, on: awaited,
        title: "synchronous dependency on an async registration",
        why: "\(awaitedName) is registered with an async factory\(isolation) so only try await can "
          + "resolve it, but \(dependentName)'s factory is synchronous: resolving \(awaitedName) "
          + "there fails every time.",
        markers: ("synchronous", "✗ async factory, resolved without await"),
        action: "Make \(dependentName)'s factory async ({ r async throws in … try await "
          + "r.resolve(…) }), or give \(awaitedName) a synchronous factory, moving its awaited "
          + "setup into an onStart hook.")
    }
  }

  /// The error for a dependency `dependent` declares on `target` that its
  /// synchronous factory cannot resolve: the two as a chain, `why`, and
  /// where the dependency is declared.
  func unservedDependency(
    _ kind: Finding.Kind, of dependent: RegistrationInfo, on target: RegistrationInfo, title: String,
    why: String, markers: (dependent: String, target: String), action: String
  ) -> Finding {
    Finding(
      .error, kind,
      title: "\(title): \(dependent.key.shortDescription) needs \(target.key.shortDescription)",
      explanation: [why, "The dependency is declared at \(dependent.site)."],
      chain: [ChainStep(dependent, marker: markers.dependent), ChainStep(target, marker: markers.target)],
      action: action)
  }

  /// The declared edges from each available registration `dependent`
  /// accepts to one `target` accepts, except those read with `await` (an
  /// ``AsyncLazy`` or ``AsyncProvider``, which a synchronous factory only
  /// stores): the dependencies a synchronous `resolve` reaches.
  func synchronousEdges(
    from dependent: (RegistrationInfo) -> Bool, to target: (RegistrationInfo) -> Bool
  ) -> [(dependent: RegistrationInfo, edge: DependencyGraph.Edge, target: RegistrationInfo)] {
    // Nodes are read in place and copied only for a finding: there are thousands.
    guard graph.nodes.contains(where: { target($0.info) }) else { return [] }
    return graph.nodes.indices.filter { graph.nodes[$0].isAvailable && dependent(graph.nodes[$0].info) }
      .flatMap { index in
        graph.edges(from: index).compactMap { edge in
          // An async decorator of a synchronous registration has its own finding.
          guard let to = edge.to, !edge.isAwaited, !edge.key.isDecorator, target(graph.nodes[to].info)
          else { return nil }
          return (graph.nodes[index].info, edge, graph.nodes[to].info)
        }
      }
  }
}
