extension DeploymentChecker {
  /// Registrations whose factories declare nothing: the check cannot see
  /// what they resolve, so it says so rather than pass them silently.
  func undeclaredDependencies() -> [Finding] {
    graph.nodes.filter { $0.isAvailable && !$0.declaresDependencies }.map { node in
      let name = node.key.shortDescription
      return Finding(
        .warning, .undeclaredDependencies,
        title: "\(name) does not declare its dependencies; check cannot see past it",
        explanation: [
          "Its factory, registered at \(node.info.site), is a closure that declares nothing, so "
            + "whatever it resolves is not checked."
        ],
        action: "Declare what the factory resolves with .dependsOn(...) (and .optionallyDependsOn(...) "
          + "for what it resolves if registered), or register it with autoregister("
          + "\(node.key.service.metatypeSpelling), initializer: ...); a factory that resolves nothing can use autoregister too."
      )
    }
  }

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
