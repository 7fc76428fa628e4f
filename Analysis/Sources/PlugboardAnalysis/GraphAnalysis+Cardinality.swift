import PlugboardKit

extension GraphAnalysis {
  /// An error per declared extension point whose available contributions
  /// do not match its cardinality in this profile
  /// (`container.extensionPoint(_:cardinality:)`): none where at least
  /// one is needed, none or several where exactly one is.
  /// Contributions left out by configuration
  /// (``Container/excludeContribution(_:reason:)``) are named, under
  /// `hooks.exclusionSource`.
  public func extensionPointCardinalities(_ hooks: ValidationHooks = ValidationHooks()) -> [Finding] {
    let declarations = container.extensionPoints
    guard !declarations.isEmpty else { return [] }
    let contributors = DependencyGraph.contributors(of: graph.nodes, in: container)
    let profile = self.profile.map { " in profile '\($0)'" } ?? ""
    // Grouped by contract once, when the first violation needs it: listing
    // the inactive registrations walks the whole registry.
    var excludedByContract: [TypeIdentity: [RegistrationInfo]]?
    func excluded(from contract: TypeIdentity) -> [RegistrationInfo] {
      if let excludedByContract { return excludedByContract[contract] ?? [] }
      var grouped: [TypeIdentity: [RegistrationInfo]] = [:]
      for info in container.inactiveRegistrations where info.exclusion != nil {
        guard let contribution = container.contribution(of: info.key) else { continue }
        grouped[contribution.contract, default: []].append(info)
      }
      excludedByContract = grouped
      return grouped[contract] ?? []
    }
    return declarations.compactMap { declaration in
      let nodes = contributors[declaration.contract.id] ?? []
      guard !declaration.cardinality.admits(nodes.count) else { return nil }
      let name = declaration.contract.shortName
      let count = nodes.isEmpty ? "none" : "\(nodes.count)"
      var explanation = [
        "\(declaration.contract.name) is declared an extension point needing \(declaration.cardinality) "
          + "contribution at \(declaration.site)."
      ]
      let excluded = excluded(from: declaration.contract)
      if nodes.isEmpty && excluded.isEmpty {
        explanation.append("No loaded plugin contributes to it\(profile).")
      } else if nodes.isEmpty {
        explanation.append("Its contributions are all left out\(profile).")
      } else {
        explanation.append("Its contributions\(profile):")
        explanation += nodes.map {
          "  \(graph.nodes[$0].key.shortDescription) at \(graph.nodes[$0].info.site)"
        }
      }
      if !excluded.isEmpty {
        explanation.append("Left out by \(hooks.exclusionSource):")
        explanation += excluded.map { "  \($0.key.shortDescription) at \($0.site): \($0.exclusion ?? "")" }
      }
      let action =
        nodes.isEmpty && !excluded.isEmpty
        ? "Keep a contribution to \(name) in \(hooks.exclusionRules) for this profile, "
          + "or declare the extension point with another cardinality."
        : nodes.isEmpty
          ? "Load a plugin that contributes \(name) in this profile (container.contribute((any \(name)).self) "
            + "{ r in ... }), or declare the extension point with another cardinality."
          : "Leave one contribution to \(name) in this profile (a profile's plugins, or inProfiles on the "
            + "contributions), or declare the extension point .atLeastOne."
      return Finding(
        .error, .extensionPointCardinality,
        title:
          "extension point \(name) needs \(declaration.cardinality) contribution; it has \(count)\(profile)",
        explanation: explanation, action: action)
    }
  }
}
