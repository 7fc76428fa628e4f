import PlugboardEngine

/// `plugboard graph --format mermaid`: a Mermaid flowchart, which GitHub
/// and most Markdown viewers render. Plugins are subgraphs; missing
/// services use the `missing` class; cycle edges are restyled red; a
/// contribution edge is a thick `== contribution ==>` arrow.
enum MermaidRenderer {
  static func render(_ model: GraphModel) -> String {
    var lines = ["flowchart LR"]
    let drawing = model.drawing
    for (index, cluster) in drawing.clusters.enumerated() {
      lines.append("  subgraph p\(index) [\(quoted(cluster.plugin))]")
      for node in cluster.nodes { lines.append("    \(statement(node))") }
      lines.append("  end")
    }
    for node in drawing.unclustered { lines.append("  \(statement(node))") }
    var cycleLinks: [Int] = []
    for (index, edge) in model.edges.enumerated() {
      let arrow =
        switch edge.kind {
        case _ where edge.optional: "-. optional .->"
        case _ where edge.cycle: "-- cycle -->"
        case .dependency: "-->"
        case .forwarded: "== forwards ==>"
        case .contribution: "== contribution ==>"
        case .decorator: "== decorated by ==>"
        case .lazy, .provider, .afterInit: "-. \(Self.deferralLabel(edge.kind)) .->"
        }
      lines.append("  \(edge.from) \(arrow) \(edge.to)")
      if edge.cycle { cycleLinks.append(index) }
    }
    if model.nodes.contains(where: { $0.status == .missing || $0.status == .failed }) {
      lines.append("  classDef missing fill:#fde8e8,stroke:#cc0000,color:#cc0000,stroke-dasharray:4 3")
    }
    if !cycleLinks.isEmpty {
      lines.append(
        "  linkStyle \(cycleLinks.map(String.init).joined(separator: ",")) stroke:#cc0000,stroke-width:3px")
    }
    return lines.joined(separator: "\n")
  }

  private static func statement(_ node: GraphModel.Node) -> String {
    switch node.status {
    case .missing: "\(node.id)[\(quoted(node.label + "<br/>✗ missing"))]:::missing"
    case .failed:
      "\(node.id)[\(quoted(node.label + "<br/>" + (node.scope ?? "") + " · plugin failed"))]:::missing"
    case .shadowed: "\(node.id)[\(quoted(node.label + "<br/>shadowed by " + (node.shadowedBy ?? "?")))]"
    case .registered: "\(node.id)[\(quoted(node.label + "<br/>" + (node.scope ?? "")))]"
    }
  }

  /// How a deferred edge is labelled, in every rendering.
  static func deferralLabel(_ kind: GraphModel.Edge.Kind) -> String {
    switch kind {
    case .lazy: "lazy"
    case .provider: "provider"
    case .afterInit: "after init"
    case .dependency, .forwarded, .contribution, .decorator: ""
    }
  }

  /// A Mermaid string: double quotes become the `#quot;` entity.
  private static func quoted(_ text: String) -> String {
    "\"\(Terminal.sanitize(text).replacingOccurrences(of: "\"", with: "#quot;"))\""
  }
}
