extension GraphAnalysis {
  /// `.container` registrations that hold `.transient`, `.graph` or
  /// `.scoped` ones, as .NET's ValidateScopes and Simple Injector's
  /// lifestyle mismatch find them: the held instance is made once and
  /// kept as long as the container, whatever its own scope says. A
  /// `.scoped` one cannot even be made there (a `.container` factory
  /// resolves outside any scope), so that one is an error.
  public func captiveDependencies() -> [Finding] {
    // Nodes are read in place and copied only for a finding: there are thousands.
    let holders = graph.nodes.indices.filter {
      graph.nodes[$0].isAvailable && graph.nodes[$0].info.scope == .container
    }
    return holders.flatMap { index in
      graph.edges(from: index).compactMap { edge -> Finding? in
        guard let target = edge.to else { return nil }
        let scope = graph.nodes[target].info.scope
        guard scope == .transient || scope == .graph || scope == .scoped else { return nil }
        return captive(graph.nodes[target].info, heldBy: graph.nodes[index])
      }
    }
  }

  private func captive(_ held: RegistrationInfo, heldBy holder: DependencyGraph.Node) -> Finding {
    let (holderName, heldName) = (holder.key.shortDescription, held.key.shortDescription)
    let isScoped = held.scope == .scoped
    let problem: String
    let action: String
    if isScoped {
      problem =
        "\(holderName) is made once per container and resolves its dependencies from the container, "
        + "outside any scope, but \(heldName) is registered scoped (one instance per scope): "
        + "resolving \(holderName) fails, whichever scope asks for it."
      action =
        "Register \(holderName) .inObjectScope(.scoped) (or .transient, resolved from a scope); or, "
        + "if one shared \(heldName) is right, register it .inObjectScope(.container)."
    } else {
      let meaning =
        held.scope == .transient ? "a new instance for every resolution" : "one instance per resolution"
      problem =
        "\(holderName) is made once per container and keeps the \(heldName) it receives for as "
        + "long as the container lives, although \(heldName) is registered \(held.scope) "
        + "(\(meaning)): everything using \(holderName) shares one \(heldName)."
      action =
        "If one shared \(heldName) is right, register it .inObjectScope(.container); "
        + "otherwise make \(holderName) .transient or .graph, or let it keep the resolver and "
        + "resolve \(heldName) each time it needs one."
    }
    return Finding(
      isScoped ? .error : .warning, .captiveDependency,
      title: "captive dependency: \(holderName) (container) holds \(heldName) (\(held.scope))",
      explanation: [problem, "The dependency is declared at \(holder.info.site)."],
      chain: [
        ChainStep(holder.info, marker: "scope container"),
        ChainStep(held, marker: "✗ scope \(held.scope), \(isScoped ? "out of reach" : "captured")"),
      ],
      action: action)
  }
}
