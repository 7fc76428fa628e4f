import PlugboardAnalysis
import PlugboardKit

/// `plugboard explain`'s answer as data (`explain --json`, format version
/// ``JSONText/formatVersion``; Docs/schemas/explain.schema.json); the text
/// report is drawn from it, so the two never disagree.
package struct ExplanationReport: Sendable, Encodable {
  package let formatVersion = JSONText.formatVersion
  /// The manifest's absolute path.
  package let manifest: String
  /// The qualified type name asked about.
  package let type: String
  /// The registration name asked for (`--name`).
  package let name: String?
  /// The active profile and what it changed.
  package let profile: ProfileEffects?
  /// The registration a request would get; absent when none.
  package let chosen: ChainStep?
  /// Why an unnamed request gets a named registration (a profile's choice).
  package let selection: String?
  /// The chosen registration's dependency tree.
  package let tree: ExplainedNode?
  /// Why each other candidate was not chosen, one sentence each.
  package let notChosen: [String]
  /// For an extension point (asked for without `--name`): the dependency
  /// tree of each contribution to it, in resolution order, each naming
  /// its plugin and registration site; empty when nothing contributes.
  package let contributions: [ExplainedNode]
  /// A registration serves the request with its whole declared tree; for
  /// an extension point with no plain registration, every contribution's
  /// tree is whole.
  package let resolves: Bool
  /// The deployment's load problems and the errors `check` finds in it
  /// besides load failures.
  package let problems: [DeploymentListing.Problem]
  package let findings: [Finding]
  /// Resolves, and the deployment has no problem and no error: exit status 0.
  package let healthy: Bool
  /// The settings of the chosen registration's plugin, resolved for the
  /// active profile, secrets redacted; empty when it declares none.
  package internal(set) var settings: [SettingListing] = []
  /// The lifecycle hooks of the chosen registration, `start` and/or
  /// `stop` (`Docs/lifecycle.md`); empty when it has none.
  package internal(set) var hooks: [String] = []
  /// The PlugboardKit the chosen registration's plugin was compiled
  /// against; absent when no loaded plugin made the chosen registration.
  package internal(set) var pluginKit: PluginKitVersion?
  /// Who signed the chosen registration's plugin and the neighbours loaded
  /// with it, plugin first; empty when no signature was checked.
  package internal(set) var signatures: [LibrarySignature] = []

  package init(
    manifest: String, type: String, name: String?, profile: ProfileEffects?, chosen: ChainStep?,
    selection: String?, tree: ExplainedNode?, notChosen: [String], problems: [DeploymentProblem],
    findings: [Finding], contributions: [ExplainedNode] = []
  ) {
    self.manifest = manifest
    self.type = type
    self.name = name
    self.profile = profile
    self.chosen = chosen
    self.selection = selection
    self.tree = tree
    self.notChosen = notChosen
    self.contributions = contributions
    resolves = tree?.complete ?? (!contributions.isEmpty && contributions.allSatisfy(\.complete))
    self.problems = problems.map(DeploymentListing.Problem.init)
    self.findings = findings
    healthy = resolves && problems.isEmpty && findings.isEmpty
  }

  /// The report as people read it.
  package var lines: [String] {
    var lines = ["explain: \(type)\(name.map { " named \"\($0)\"" } ?? "")"]
    if let profile { lines += [""] + ProfileLines.lines(profile) }
    if let chosen {
      lines += [
        "", "Chosen:", "  \(chosen.text)",
        "  scope \(chosen.scope ?? "?"), \(chosen.name.map { "name \"\($0)\"" } ?? "unnamed")",
      ]
      if let selection { lines.append("  unnamed requests are served by \(selection)") }
      if let pluginKit, let plugin = chosen.plugin {
        lines.append("  plugin '\(plugin)' was compiled against \(pluginKit.text)")
      }
      for signature in signatures {
        lines.append("  plugin '\(Terminal.sanitize(signature.plugin))': \(signature.text)")
      }
      if !hooks.isEmpty {
        lines.append(
          "  \(hooks.joined(separator: " and ")) hook\(hooks.count == 1 ? "" : "s"): `plugboard run` starts it "
            + "before the application, after what it depends on, and stops it in reverse")
      }
      if let tree { lines += ["", "Dependency tree:"] + tree.lines() }
      if !settings.isEmpty, let plugin = chosen.plugin {
        lines += ["", "Settings of plugin '\(plugin)':"] + SettingListing.lines(settings)
      }
    } else if !contributions.isEmpty {
      lines += [
        "", "Chosen:",
        "  nothing: no plain registration; it is an extension point, served by its contributions",
      ]
    } else {
      lines += [
        "", "Chosen:", "  nothing: no loaded plugin registers it\(name == nil ? "" : " under that name")",
      ]
    }
    if !contributions.isEmpty {
      lines += ["", "Contributions (\(contributions.count)), in resolution order:"]
      for contribution in contributions { lines += contribution.lines() }
    }
    lines +=
      ["", "Not chosen:"] + (notChosen.isEmpty ? ["  (no other candidates)"] : notChosen.map { "  - \($0)" })
    return lines
  }
}
