import PlugboardKit

extension DeploymentChecker {
  /// A warning per contribution an extension point lacks in this profile
  /// because its plugin is not loaded here (disabled, or left out by the
  /// profile; learned by probing it). The extension point still resolves,
  /// with one contribution fewer, so it is no error.
  func missingContributions() -> [Finding] {
    var findings: [Finding] = []
    for probe in probes {
      for registration in probe.registrations {
        // Probed registrations are text; the reserved name says which is a
        // contribution.
        let key = ServiceKey(service: TypeIdentity(Void.self), name: registration.name)
        guard key.isContribution else { continue }
        let contribution = Self.display(type: registration.type, name: key.contributionName)
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
    return findings
  }

  /// `AppFeature contribution "issues"`, or `AppFeature contribution`.
  private static func display(type: String, name: String?) -> String {
    TypeQuery.bareName(type) + " contribution" + (name.map { " \"\(Terminal.sanitize($0))\"" } ?? "")
  }
}
