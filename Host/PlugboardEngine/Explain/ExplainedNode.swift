/// One line of `explain`'s dependency tree, as data: the registration
/// serving a dependency, or why none does. `explain --json` prints it; the
/// text tree is drawn from it.
package struct ExplainedNode: Sendable, Encodable {
  /// What became of the dependency.
  package enum Status: String, Sendable, Encodable {
    /// A registration serves it; its own dependencies are `children`.
    case registered
    /// Shown earlier in the tree; its dependencies are not repeated.
    case repeated
    /// Nothing registers it.
    case missing
    /// It closes a cycle back to a node above it.
    case cycle
    /// It leads back to a node above it through a `Lazy`, `Provider` or
    /// `initCompleted` edge: not a cycle, as the instance exists by the time
    /// it is used.
    case afterConstruction
  }

  /// The fully qualified service type.
  package let service: String
  /// `AuthService` or `AuthService named "Mock"`.
  package let display: String
  package let status: Status
  /// Declared with `.optionallyDependsOn`.
  package let optional: Bool
  /// The serving registration's scope, plugin and site, when one serves it.
  package let scope: String?
  package let plugin: String?
  package let file: String?
  package let line: Int?
  /// `Auth/AuthAssembly.swift:7 in plugin Auth`, as the text shows it.
  let site: String?
  /// "dependencies not declared", "see above".
  package let notes: [String]
  package let children: [ExplainedNode]

  /// Whether a request for it would be served by a complete tree: nothing
  /// required missing, and no cycle anywhere below.
  var complete: Bool {
    switch status {
    case .registered, .repeated: children.allSatisfy(\.complete)
    case .missing: optional
    case .cycle: false
    case .afterConstruction: true
    }
  }

  /// The tree's lines, this node's first.
  func lines(prefix: String = "  ", childPrefix: String = "  ") -> [String] {
    var lines: [String] = []
    appendLines(to: &lines, prefix: prefix, childPrefix: childPrefix)
    return lines
  }

  /// Appends the tree's lines to one array: returning each subtree's
  /// lines to be appended by its parent copied every line once per
  /// ancestor, quadratic in a chain's depth (1,000 plugins chained).
  private func appendLines(to lines: inout [String], prefix: String, childPrefix: String) {
    var head = prefix + display
    switch status {
    case .registered, .repeated:
      head += "  [\(scope ?? "?")]  \(site ?? "?")"
      if !notes.isEmpty { head += "  (\(notes.joined(separator: "; ")))" }
      if optional { head += "  (optional)" }
    case .missing: head += optional ? "  (optional; not registered)" : "  (✗ not registered)"
    case .cycle: head += "  (\(optional ? "optional; " : "")✗ cycle back to it)"
    case .afterConstruction: head += "  (back to it, after construction)"
    }
    lines.append(head)
    for (offset, child) in children.enumerated() {
      let last = offset == children.count - 1
      child.appendLines(
        to: &lines, prefix: childPrefix + (last ? "└─ " : "├─ "),
        childPrefix: childPrefix + (last ? "   " : "│  "))
    }
  }

  private enum CodingKeys: String, CodingKey {
    case service, display, status, optional, scope, plugin, file, line, notes, children
  }
}
