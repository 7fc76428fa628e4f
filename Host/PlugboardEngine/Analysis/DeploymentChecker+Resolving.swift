import PlugboardAnalysis
import PlugboardKit

/// `check --resolve`: the findings only running the factories can make.
extension DeploymentChecker {
  /// Resolves every registration of the active profile that
  /// ``Container/checkByResolving(profile:)`` can, each in a scope of its
  /// own, and returns a `resolutionFailed` error for each one that fails,
  /// with the chain the resolution took and where (in which plugin) it is
  /// registered. This runs plugin code, with whatever side effects its
  /// factories have, which is why `check` does it only when asked.
  ///
  /// Each registration is recorded as a stage of the plugin that
  /// registered it before it is resolved, so that a factory that crashes
  /// or hangs the supervised child is reported with its plugin and the
  /// registration being made (``LoadStage/resolveRegistrations``), and a
  /// hanging one is stopped after the stage timeout.
  package func resolvingFindings() async -> [Finding] {
    let files = Dictionary(deployment.loadedPlugins.map { ($0.entry.name, $0.file) }) { first, _ in first }
    let report = await deployment.container.checkByResolving(profile: nil) { _, site in
      deployment.progress.report(
        .stage(.resolveRegistrations, plugin: site.plugin, file: site.plugin.flatMap { files[$0] }))
    }
    // Whatever comes next until the report is plugboard's own work, with
    // no plugin's deadline running.
    deployment.progress.report(.stage(.validate, plugin: nil, file: nil))
    return report.findings
  }
}
