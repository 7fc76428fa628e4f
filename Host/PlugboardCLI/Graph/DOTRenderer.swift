import PlugboardEngine

/// `plugboard graph --format dot`: Graphviz's language. Each plugin is a
/// `cluster_` subgraph (drawn as a box around its registrations); missing
/// services are red dashed nodes; cycle edges are thick and red; optional
/// dependencies are dashed; a forwarded type's edge is bold with a hollow
/// head; an edge followed after construction (`Lazy`, `Provider`,
/// `initCompleted`) is dotted and labelled with how; an edge from a
/// `Contributions` dependency to a contribution is bold, blue and labelled
/// `contribution`.
enum DOTRenderer {
  static func render(_ model: GraphModel) -> String {
    var lines = [
      "digraph Plugboard {",
      "  rankdir=LR;",
      ##"  node [shape=box, style="rounded,filled", fillcolor="#f5f7fa", fontname="Helvetica", fontsize=11];"##,
      ##"  edge [fontname="Helvetica", fontsize=9];"##,
    ]
    let drawing = model.drawing
    for (index, cluster) in drawing.clusters.enumerated() {
      lines.append("  subgraph cluster_\(index) {")
      lines.append("    label=\(quoted(cluster.plugin));")
      lines.append(##"    style="rounded"; color="#8a94a6"; fontname="Helvetica";"##)
      for node in cluster.nodes { lines.append("    \(statement(node))") }
      lines.append("  }")
    }
    for node in drawing.unclustered { lines.append("  \(statement(node))") }
    for edge in model.edges {
      var attributes: [String] = []
      switch edge.kind {
      case .dependency: break
      case .forwarded: attributes += ["style=bold", "arrowhead=empty", ##"label="forwards""##]
      case .contribution:
        attributes += [
          "style=bold", ##"color="#2f6fb0""##, ##"fontcolor="#2f6fb0""##, ##"label="contribution""##,
        ]
      case .decorator:
        attributes += [
          "style=bold", ##"color="#7a4fb0""##, ##"fontcolor="#7a4fb0""##, ##"label="decorated by""##,
        ]
      case .lazy, .provider, .afterInit:
        attributes += ["style=dotted", "label=\(quoted(MermaidRenderer.deferralLabel(edge.kind)))"]
      }
      if edge.optional { attributes += ["style=dashed", ##"label="optional""##] }
      if edge.cycle { attributes += [##"color="#cc0000""##, "penwidth=2.5", ##"fontcolor="#cc0000""##] }
      if edge.cycle && !edge.optional { attributes.append(##"label="cycle""##) }
      let tail = attributes.isEmpty ? "" : " [\(attributes.joined(separator: ", "))]"
      lines.append("  \(edge.from) -> \(edge.to)\(tail);")
    }
    lines.append("}")
    return lines.joined(separator: "\n")
  }

  private static func statement(_ node: GraphModel.Node) -> String {
    switch node.status {
    case .missing:
      return "\(node.id) [label=\(quoted(node.label + "\n✗ missing")), "
        + ##"style="rounded,dashed", color="#cc0000", fontcolor="#cc0000"];"##
    case .failed:
      return "\(node.id) [label=\(quoted(node.label + "\n" + (node.scope ?? "") + " · plugin failed"))"
        + ##", color="#cc0000"];"##
    case .shadowed:
      return "\(node.id) [label=\(quoted(node.label + "\nshadowed by " + (node.shadowedBy ?? "?")))"
        + ##", style="rounded,dashed", color="#888888", fontcolor="#888888"];"##
    case .registered:
      return "\(node.id) [label=\(quoted(node.label + "\n" + (node.scope ?? "")))];"
    }
  }

  /// A DOT string literal.
  static func quoted(_ text: String) -> String {
    let escaped = text.replacingOccurrences(of: "\\", with: "\\\\")
      .replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
    return "\"\(Terminal.sanitize(escaped))\""
  }
}
