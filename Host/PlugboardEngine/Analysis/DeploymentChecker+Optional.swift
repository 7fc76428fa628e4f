import PlugboardAnalysis
import PlugboardKit

extension DeploymentChecker {
  /// A warning per optional plugin that failed, with what depends on it:
  /// the dependencies of loaded registrations that only its registrations
  /// (made before it failed) would serve.
  func optionalPlugins() -> [Finding] {
    deployment.optionalFailures.map { entry, problem in
      let dependents = graph.nodes.filter(\.isAvailable).flatMap { node in
        graph.edges(from: node.index).filter { edge in
          edge.to == nil
            && graph.unavailableProvider(of: edge.key).map { graph.nodes[$0].plugin } == entry.name
        }
      }
      var explanation = [problem.description]
      // Its contributions have no dependents of their own: what resolves
      // their extension point gets fewer (each a contributionMissing warning).
      let contributions = graph.nodes.filter { $0.plugin == entry.name && $0.key.isContribution }
      if dependents.isEmpty {
        if !contributions.isEmpty {
          explanation.append(
            "Nothing loaded asks for what it registers by type, but its extension points lose its contributions: "
              + contributions.map(\.key.shortDescription).joined(separator: ", ") + ".")
        } else {
          explanation.append(
            graph.nodes.contains { $0.plugin == entry.name }
              ? "Nothing loaded depends on what it registers."
              : "It registered nothing before it failed, so what depends on it is not known; a dependency only "
                + "it would serve is reported as missing.")
        }
        // What it would have served is unknown, but an optional dependency
        // nothing serves is the usual reason to mark a plugin optional.
        let unserved = unservedOptionalDependencies()
        if !unserved.isEmpty, !graph.nodes.contains(where: { $0.plugin == entry.name }) {
          explanation.append("Optional dependencies nothing serves now, which it may have provided:")
          explanation += unserved
        }
      } else {
        explanation.append("What depends on it:")
        explanation += dependents.map { edge in
          let requester = graph.nodes[edge.from].info
          return
            "  \(requester.key.shortDescription) (at \(requester.site)) needs \(edge.key.shortDescription)"
        }
      }
      return Finding(
        .warning, .optionalPluginFailed,
        title: "optional plugin '\(entry.name)' failed; the deployment runs without it",
        explanation: explanation,
        action:
          "Fix what stopped plugin '\(entry.name)' at stage '\(problem.stage.rawValue)' to have it back; "
          + "until then, nothing it registers is available.")
    }
  }

  /// `  AnalyticsTracker, wanted by Application (at Shell/ShellAssembly.swift:15 in plugin Shell)`
  /// for each optional dependency of a loaded registration that nothing serves.
  /// An extension point (a `Contributions` dependency) is left out: nothing
  /// registers it, its contributions serve it.
  private func unservedOptionalDependencies() -> [String] {
    graph.nodes.filter(\.isAvailable).flatMap { node in
      graph.edges(from: node.index).filter { $0.isOptional && $0.to == nil && !$0.key.isExtensionPoint }.map {
        edge in
        "  \(edge.key.shortDescription), wanted by \(node.key.shortDescription) (at \(node.info.site))"
      }
    }
  }
}
