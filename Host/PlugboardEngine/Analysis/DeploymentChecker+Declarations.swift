import PlugboardAnalysis
import PlugboardKit

extension DeploymentChecker {
  /// Plugins that failed to load, and profile choices that failed.
  func loadFailures() -> [Finding] {
    deployment.problems.filter { !isReportedAsConfiguration($0) }.map { problem in
      Finding(
        .error, .loadFailure,
        title: problem.plugin.map { "plugin '\($0)' failed to load" }
          ?? "the deployment failed at stage '\(problem.stage.rawValue)'",
        explanation: [problem.description],
        action: problem.plugin.map {
          "Fix what stopped plugin '\($0)' at stage '\(problem.stage.rawValue)', as the explanation says; "
            + "until then, nothing the plugin registers is available."
        } ?? "Correct the manifest where the explanation points; nothing falls back to another choice.")
    }
  }

  /// Plugins that were not loaded and whose registrations could not be
  /// learned by loading it on its own.
  func probeFailures() -> [Finding] {
    probes.compactMap { probe in
      guard case .failed(let reason) = probe.outcome else { return nil }
      return Finding(
        .warning, .probeFailure,
        title: "what plugin '\(probe.entry.name)' provides is unknown",
        explanation: [
          "It was loaded on its own to learn what it registers, because "
            + "\(notLoaded(probe.entry)), and that failed: \(reason)."
        ],
        action: reason.hasSuffix(CrashReport.slowHint)
          ? "If plugin '\(probe.entry.name)' is only slow, raise \"stageTimeout\" in the manifest or pass "
            + "--stage-timeout; otherwise fix it before loading it, or remove it from plugins.json."
          : "Fix the plugin before loading it, or remove it from plugins.json.")
    }
  }
}
