import PlugboardAnalysis
import PlugboardKit

extension DeploymentChecker {
  /// A warning per contribution an extension point lacks in this profile:
  /// one whose plugin is not loaded here (disabled, or left out by the
  /// profile; learned by probing it), and one made by a plugin that then
  /// failed, optional or not. The extension point still resolves, with one
  /// contribution fewer, so neither is an error of its own.
  func missingContributions() -> [Finding] {
    var findings: [Finding] = []
    for probe in probes {
      for registration in probe.registrations {
        guard registration.kind == .contribution else { continue }
        let contribution = registration.shortDescription
        let reason = notLoaded(probe.entry)
        findings.append(
          Finding(
            .warning, .contributionMissing,
            title: "\(contribution) is missing from its extension point: \(reason)",
            explanation: [
              "It is contributed at \(registration.file):\(registration.line) in plugin \(probe.entry.name).",
              "Everything that resolves every contribution to \(registration.type) gets one fewer here.",
            ],
            action:
              "If \(TypeQuery.bareName(registration.type)) needs it here, load plugin '\(probe.entry.name)' "
              + "(\(manifestPosition(of: probe.entry.name))); otherwise nothing is wrong."))
      }
    }
    // A plugin that failed after contributing (optional or not): its
    // registrations are withdrawn, and its contributions with them.
    for node in graph.nodes where !node.isAvailable && node.key.isContribution {
      let plugin = node.plugin ?? "?"
      findings.append(
        Finding(
          .warning, .contributionMissing,
          title:
            "\(node.key.shortDescription) is missing from its extension point: plugin '\(plugin)' failed",
          explanation: [
            "It is contributed at \(node.info.site); the plugin failed after making it, so it is withdrawn.",
            "Everything that resolves every contribution to \(node.key.service.name) gets one fewer.",
          ],
          action: "Fix what stopped plugin '\(plugin)' to have the contribution back."))
    }
    return findings
  }
}
