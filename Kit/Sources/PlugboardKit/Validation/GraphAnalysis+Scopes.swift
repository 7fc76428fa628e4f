extension GraphAnalysis {
  /// `.container` registrations that hold `.transient` or `.graph` ones,
  /// as .NET's ValidateScopes and Simple Injector's lifestyle mismatch
  /// find them: the held instance is made once and kept as long as the
  /// container, whatever its own scope says.
  public func captiveDependencies() -> [Finding] {
    // Nodes are read in place and copied only for a finding: there are thousands.
    let holders = graph.nodes.indices.filter {
      graph.nodes[$0].isAvailable && graph.nodes[$0].info.scope == .container
    }
    return holders.flatMap { index in
      graph.edges(from: index).compactMap { edge -> Finding? in
        guard let target = edge.to else { return nil }
        let scope = graph.nodes[target].info.scope
        guard scope == .transient || scope == .graph else { return nil }
        let holder = graph.nodes[index]
        let held = graph.nodes[target].info
        let meaning =
          held.scope == .transient ? "a new instance for every resolution" : "one instance per resolution"
        let (holderName, heldName) = (holder.key.shortDescription, held.key.shortDescription)
        return Finding(
          .warning, .captiveDependency,
          title: "captive dependency: \(holderName) (container) holds \(heldName) (\(held.scope))",
          explanation: [
            "\(holderName) is made once per container and keeps the \(heldName) it receives for as "
              + "long as the container lives, although \(heldName) is registered \(held.scope) "
              + "(\(meaning)): everything using \(holderName) shares one \(heldName).",
            "The dependency is declared at \(holder.info.site).",
          ],
          chain: [
            ChainStep(holder.info, marker: "scope container"),
            ChainStep(held, marker: "✗ scope \(held.scope), captured"),
          ],
          action: "If one shared \(heldName) is right, register it .inObjectScope(.container); "
            + "otherwise make \(holderName) .transient or .graph, or let it keep the resolver and "
            + "resolve \(heldName) each time it needs one.")
      }
    }
  }
}
