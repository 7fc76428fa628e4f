extension GraphAnalysis {
  /// Synchronous registrations that declare a dependency (`dependsOn`, an
  /// `autoregister` parameter, a `Lazy` or `Provider`) on an async one:
  /// their factory resolves it with a synchronous `resolve`, which fails
  /// every time with "registered with an async factory". An `AsyncLazy`
  /// or `AsyncProvider` is read later with `await`: a synchronous factory
  /// only stores it, so that edge is no such dependency.
  public func synchronousDependenciesOnAsync() -> [Finding] {
    // Nodes are read in place and copied only for a finding: there are thousands.
    let asyncNodes = graph.nodes.indices.filter { graph.nodes[$0].info.isAsync }
    guard !asyncNodes.isEmpty else { return [] }
    let dependents = graph.nodes.indices.filter {
      graph.nodes[$0].isAvailable && !graph.nodes[$0].info.isAsync
    }
    return dependents.flatMap { index in
      graph.edges(from: index).compactMap { edge -> Finding? in
        // An async decorator of a synchronous registration has its own finding.
        guard let target = edge.to, !edge.isAwaited, !edge.key.isDecorator, graph.nodes[target].info.isAsync
        else { return nil }
        let dependent = graph.nodes[index].info
        let awaited = graph.nodes[target].info
        let (dependentName, awaitedName) = (dependent.key.shortDescription, awaited.key.shortDescription)
        let isolation = awaited.isolation.map { ", isolated to \($0)," } ?? ""
        return Finding(
          .error, .synchronousDependencyOnAsync,
          title: "synchronous dependency on an async registration: \(dependentName) needs \(awaitedName)",
          explanation: [
            "\(awaitedName) is registered with an async factory\(isolation) so only try await can "
              + "resolve it, but \(dependentName)'s factory is synchronous: resolving \(awaitedName) "
              + "there fails every time.",
            "The dependency is declared at \(dependent.site).",
          ],
          chain: [
            ChainStep(dependent, marker: "synchronous"),
            ChainStep(awaited, marker: "✗ async factory, resolved without await"),
          ],
          action: "Make \(dependentName)'s factory async ({ r async throws in … try await "
            + "r.resolve(…) }), or give \(awaitedName) a synchronous factory, moving its awaited "
            + "setup into an onStart hook.")
      }
    }
  }
}
