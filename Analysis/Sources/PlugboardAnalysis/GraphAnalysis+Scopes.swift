import PlugboardKit

extension GraphAnalysis {
  /// Shorter-lived registrations a `.container` one keeps, as .NET's
  /// ValidateScopes and Simple Injector's lifestyle mismatch find them,
  /// followed through what is made with the holder: from each singleton,
  /// through the edges that capture (made with it, a `Lazy`, an
  /// `initCompleted` handler; not a `Provider`, which resolves anew on
  /// every read) and the registrations that cache nothing (`.transient`,
  /// `.graph`, `.weak`), since those are made in the singleton's
  /// resolution too.
  ///
  /// - A `.transient` or `.graph` one it holds directly is a warning: made
  ///   once and kept as long as the container.
  /// - A custom scope's one is a warning: the singleton keeps the old
  ///   instance after `resetObjectScope`.
  /// - A `.scoped` one, directly, further down, or through a `Provider`
  ///   read from the singleton (and what that read makes), is an error: a
  ///   `.container` factory resolves outside any scope, so resolving it
  ///   fails every time. A custom scope's registration resolves outside
  ///   any `.scoped` scope too, and gets the same error; what else it
  ///   keeps lives until its scope's reset, which is what it asked for.
  public func captiveDependencies() -> [Finding] {
    // Nodes are read in place and copied only for a finding: there are thousands.
    let holders = graph.nodes.indices.filter {
      graph.nodes[$0].isAvailable && graph.nodes[$0].info.scope == .container
    }
    return holders.flatMap { captives(of: $0, scopedOnly: graph.nodes[$0].info.customScope != nil) }
  }

  /// The findings of one holder, each held registration once, by the
  /// shortest path that reaches it; only the `.scoped` ones with
  /// `scopedOnly`.
  private func captives(of holder: Int, scopedOnly: Bool) -> [Finding] {
    var findings: [Finding] = []
    var parent: [Int: Int] = [holder: holder]
    // Reached through a `Provider`: made when read, outside any scope,
    // and not kept by the holder.
    var read: Set<Int> = []
    var queue = [holder]
    var next = 0
    while next < queue.count {
      let current = queue[next]
      next += 1
      for edge in graph.edges(from: current) {
        guard let target = edge.to, parent[target] == nil else { continue }
        let held = graph.nodes[target].info
        // A decorator of the holder runs once, on the instance the holder's
        // scope keeps: part of making it, so what it needs is what the
        // holder needs, and it is no captive itself.
        let direct = current == holder || (graph.nodes[current].key.isDecorator && parent[current] == holder)
        if held.key.isDecorator, edge.key.isDecorator {
          parent[target] = current
          queue.append(target)
          continue
        }
        guard edge.isCaptured && !read.contains(current) else {
          // A Provider resolves when read, from the holder: outside any
          // scope, and so does what the instance read is made with.
          if held.scope == .scoped {
            parent[target] = current
            findings.append(captive(path(to: target, parent: parent), through: edge, isRead: true))
          } else if Self.cachesNothing(held.scope) && held.customScope == nil {
            parent[target] = current
            read.insert(target)
            queue.append(target)
          }
          continue
        }
        parent[target] = current
        let isCaptive =
          held.scope == .scoped
          || (!scopedOnly && (held.customScope != nil || (direct && Self.cachesNothing(held.scope))))
        if isCaptive {
          findings.append(captive(path(to: target, parent: parent), through: edge, isRead: false))
        }
        // Made in the holder's resolution: what it needs is captured too.
        if Self.cachesNothing(held.scope) && held.customScope == nil { queue.append(target) }
      }
    }
    return findings
  }

  private static func cachesNothing(_ scope: ObjectScope) -> Bool {
    scope == .transient || scope == .graph || scope == .weak
  }

  /// The nodes from the holder to `node`.
  private func path(to node: Int, parent: [Int: Int]) -> [Int] {
    var path = [node]
    var current = node
    while let previous = parent[current], previous != current {
      path.append(previous)
      current = previous
    }
    return path.reversed()
  }

  private func captive(_ path: [Int], through edge: DependencyGraph.Edge, isRead: Bool) -> Finding {
    let holder = graph.nodes[path[0]]
    let held = graph.nodes[path[path.count - 1]].info
    let (holderName, heldName) = (holder.key.shortDescription, held.key.shortDescription)
    let heldScope = held.customScope.map { "custom scope \($0)" } ?? held.scope.description
    let holderScope = holder.info.customScope.map { "custom scope \($0)" } ?? "container"
    let holderLife =
      holder.info.customScope.map { "kept in the custom scope \($0)" } ?? "made once per container"
    let through =
      path.count > 2
      ? " through "
        + path.dropFirst().dropLast().map { graph.nodes[$0].key.shortDescription }.joined(separator: ", ")
      : ""
    let isScoped = held.scope == .scoped
    let problem: String
    let action: String
    if isScoped {
      let reading = isRead ? "reads its Provider" : "resolves its dependencies"
      problem =
        "\(holderName) is \(holderLife) and \(reading) from the container\(through), "
        + "outside any scope, but \(heldName) is registered scoped (one instance per scope): "
        + "resolving \(isRead ? heldName : holderName) fails, whichever scope asks for it."
      action =
        "Register \(holderName) .inObjectScope(.scoped) (or .transient, resolved from a scope); or, "
        + "if one shared \(heldName) is right, register it .inObjectScope(.container)."
    } else if let custom = held.customScope {
      problem =
        "\(holderName) is made once per container and keeps the \(heldName) it receives\(through) for as "
        + "long as the container lives, although \(heldName) is registered in the custom scope \(custom): "
        + "after resetObjectScope(\(custom)) everything else gets a new \(heldName), and \(holderName) "
        + "keeps the old one."
      action =
        "Let \(holderName) hold a Provider<\(heldName)> and read it each time it needs one; or register "
        + "\(holderName) in the custom scope \(custom) too."
    } else {
      let meaning =
        held.scope == .transient ? "a new instance for every resolution" : "one instance per resolution"
      problem =
        "\(holderName) is made once per container and keeps the \(heldName) it receives for as "
        + "long as the container lives, although \(heldName) is registered \(held.scope) "
        + "(\(meaning)): everything using \(holderName) shares one \(heldName)."
      action =
        "If one shared \(heldName) is right, register it .inObjectScope(.container); "
        + "otherwise make \(holderName) .transient or .graph, or let it hold a Provider<\(heldName)> and "
        + "read it each time it needs one."
    }
    var chain = [ChainStep(holder.info, marker: "scope \(holderScope)")]
    for node in path.dropFirst().dropLast() {
      let info = graph.nodes[node].info
      chain.append(ChainStep(info, marker: "scope \(info.scope), made with it"))
    }
    let how = isRead ? "read outside any scope" : (isScoped ? "out of reach" : "captured")
    chain.append(ChainStep(held, marker: "✗ scope \(heldScope), \(how)"))
    return Finding(
      isScoped ? .error : .warning, .captiveDependency,
      title: "captive dependency: \(holderName) (\(holderScope)) holds \(heldName) (\(heldScope))",
      explanation: [problem, "The dependency is declared at \(graph.nodes[edge.from].info.site)."],
      chain: chain,
      action: action)
  }
}
