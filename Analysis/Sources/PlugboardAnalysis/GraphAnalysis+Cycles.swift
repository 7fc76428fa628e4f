import PlugboardKit

extension GraphAnalysis {
  /// Every cycle of declared dependencies, with the plugin and site that
  /// declared each of its edges.
  public func cycles() -> [Finding] {
    CycleFinder.cycles(in: graph).map { cycle in
      let members = cycle.members.map { graph.nodes[$0].info }
      let names = (members + [members[0]]).map(\.key.shortDescription)
      var explanation = [
        "Each of these services needs the next, so resolving any of them never finishes:"
      ]
      for (offset, member) in members.enumerated() {
        let next = members[(offset + 1) % members.count]
        let how = member.forwardsTo == next.key ? "forwarded" : "declared"
        explanation.append(
          "  \(member.key.shortDescription) → \(next.key.shortDescription), \(how) at \(member.site)")
      }
      if !cycle.approach.isEmpty {
        let path = (cycle.approach + [cycle.members[0]]).map { graph.nodes[$0].key.shortDescription }
        let origin = cycle.approach.first == graph.root ? "the Application" : "\(path[0])"
        explanation.append("It is reached from \(origin): \(path.joined(separator: " → ")).")
      }
      return Finding(
        .error, .cycle,
        title: "dependency cycle: \(names.joined(separator: " → "))",
        explanation: explanation, chainTitle: "Cycle",
        chain: members.map { ChainStep($0) } + [ChainStep(members[0], marker: "✗ cycle closes here")],
        action: "Break the cycle: let one of these services take its dependency as a Lazy<…> or "
          + "Provider<…>, or set it after construction with initCompleted(resolving:), or move the "
          + "part they share into a new service.")
    }
  }
}
