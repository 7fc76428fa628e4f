/// What `plugboard check` found in every profile it checked: one
/// ``CheckReport`` per profile (a single one, without a profile, when the
/// manifest declares none). A graph healthy in `live` can be broken in
/// `mock`, so the deployment is healthy only when every report is.
package struct CheckSummary: Sendable, Encodable {
  /// ``JSONText/formatVersion`` (Docs/schemas/check.schema.json).
  package let formatVersion = JSONText.formatVersion
  /// The manifest's absolute path.
  package let manifest: String
  /// No error in any profile: `check` exits with status 0.
  package let healthy: Bool
  package let errors: Int
  package let warnings: Int
  /// In the manifest's order of profiles.
  package let reports: [CheckReport]
  /// Why no profile could be checked: the manifest's problems (then
  /// `reports` is empty). Each counts as an error.
  package let problems: [DeploymentListing.Problem]

  init(manifest: String, reports: [CheckReport]) {
    self.manifest = manifest
    self.reports = reports
    problems = []
    healthy = reports.allSatisfy(\.healthy)
    errors = reports.map(\.errors).reduce(0, +)
    warnings = reports.map(\.warnings).reduce(0, +)
  }

  /// The summary of a check that could not start: `manifest` could not be
  /// read, for `problems`.
  package init(manifest: String, problems: [DeploymentProblem]) {
    self.manifest = manifest
    reports = []
    self.problems = problems.map(DeploymentListing.Problem.init)
    healthy = problems.isEmpty
    errors = problems.count
    warnings = 0
  }

  /// Brings `manifest` up in each of `profiles` in turn (nil: no profile)
  /// and checks it. Plugins a profile leaves out are probed with `probe`,
  /// each once whichever profiles leave it out. With `resolving` (`check
  /// --resolve`), every registration of each profile is also resolved
  /// (``DeploymentChecker/resolvingFindings()``), which runs plugin code.
  /// Bring-up reports to `progress`, with `settings`.
  package static func check(
    _ manifest: Manifest, profiles: [ActiveProfile?], probe: PluginProbe, resolving: Bool = false,
    progress: ChildSession, settings: HostSettings
  ) async -> CheckSummary {
    var known: [Int: ProbeResult] = [:]
    var reports: [CheckReport] = []
    for profile in profiles {
      let deployment = Deployment.bringUp(
        manifest, profile: profile, loader: PluginLoader(progress: progress), settings: settings)
      let probes = probe.probeUnloaded(of: deployment, known: &known)
      deployment.progress.report(.stage(.validate, plugin: nil, file: nil))
      let checker = DeploymentChecker(deployment, probes: probes)
      // `check` exits once it has reported.
      ProcessLifetime.keep(checker)
      let resolved = resolving ? await checker.resolvingFindings() : []
      reports.append(checker.check(adding: resolved))
    }
    return CheckSummary(manifest: manifest.path, reports: reports)
  }

  /// Every report, one after another; when there are several, a last line
  /// with each profile's verdict.
  package var lines: [String] {
    var lines: [String] = []
    for report in reports {
      if !lines.isEmpty { lines.append("") }
      lines += report.lines
    }
    guard reports.count > 1 else { return lines }
    let verdicts = reports.map { report in
      "'\(report.profile ?? "?")' \(report.healthy ? "healthy" : "broken") "
        + "(\(CheckReport.count(report.errors, "error")), \(CheckReport.count(report.warnings, "warning")))"
    }
    let verdict = healthy ? "the deployment is healthy" : "the deployment is broken"
    let count = CheckReport.count(reports.count, "profile")
    lines += ["", "check: \(count) checked: \(verdicts.joined(separator: ", ")); \(verdict)"]
    return lines
  }
}
