import Foundation

/// `reload_*`: a served deployment reloaded with SIGHUP while a client
/// sends requests in a loop (see ``ServedRun``). For each deployment, two
/// rows: the time from the SIGHUP to the new child's first answer, and the
/// longest time the client went without an answer during a reload, whose
/// target is that no request went unanswered.
struct ReloadScenarios {
  let quick: Bool
  /// `--only`: `reload` (or nothing) runs both deployments;
  /// `reload_sample…` or `reload_generated…` one of them.
  var only: String? = nil

  /// Reloads per deployment: the rows' samples.
  private var reloads: Int { quick ? 2 : 11 }

  func run() -> [ResultRow] {
    let setup: ProcessSetup
    do {
      setup = try ProcessSetup("reload")
    } catch {
      return [ResultRow.unavailable("reload_sample", unit: "ms", reason: "error: \(error)")]
    }
    let wanted = { (group: String) in ScenarioGroup.isWanted(group, only: only) }
    return (wanted("reload_sample") ? sample(setup.locations, work: setup.work.url) : [])
      + (wanted("reload_generated") ? generated(setup.locations, work: setup.work.url) : [])
  }

  /// The repository's deployment, release-built, serving its menu.
  private func sample(_ locations: BenchLocations, work: URL) -> [ResultRow] {
    let scenario = "reload_sample"
    switch SampleDeployment.prepare(locations, in: work, buildsMissing: !quick) {
    case .failure(let failure): return rows(scenario, .failure(failure))
    case .success(let deployment):
      return rows(scenario, served(locations, manifest: deployment.manifest, request: "menu", work: work))
    }
  }

  /// The 200 generated plugins of `startup_generated_200`, whose
  /// application serves the pid that answers.
  private func generated(_ locations: BenchLocations, work: URL) -> [ResultRow] {
    let scenario = "reload_generated_\(StartupScenarios.generatedPluginCount)"
    guard !quick else {
      return [.unavailable(scenario, unit: "ms", reason: "skipped in --quick (needs a long build)")]
    }
    let sources = GeneratedSources(
      pluginCount: StartupScenarios.generatedPluginCount,
      registrationsPerPlugin: StartupScenarios.registrationsPerPlugin,
      kitPath: locations.repositoryRoot.appendingPathComponent("Kit").path)
    switch GeneratedDeployment.prepare(locations, sources: sources, work: work) {
    case .failure(let failure): return rows(scenario, .failure(failure))
    case .success(let deployment):
      return rows(scenario, served(locations, manifest: deployment.manifest, request: "pid", work: work))
    }
  }

  private func served(_ locations: BenchLocations, manifest: URL, request: String, work: URL)
    -> Result<ServedRun.Outcome, BenchFailure>
  {
    locations.built("plugboard").flatMap { plugboard in
      ServedRun(
        plugboard: plugboard.path, arguments: ["run", "--manifest", manifest.path, "--", "--serve"],
        environment: locations.childEnvironment, request: request, work: work
      ).run(reloads: reloads)
    }
  }

  private func rows(_ scenario: String, _ result: Result<ServedRun.Outcome, BenchFailure>) -> [ResultRow] {
    let outcome: ServedRun.Outcome
    switch result {
    case .failure(let failure):
      return [.unavailable(scenario, unit: "ms", reason: "error: \(failure)")]
    case .success(let served): outcome = served
    }
    let milliseconds = { (values: [UInt64]) in Measurement(samples: values.map { Double($0) / 1e6 }) }
    // The table has medians and minimums; the worst reload is worth a line.
    let worst = { (values: [UInt64]) in String(format: "%.2f ms", Double(values.max() ?? 0) / 1e6) }
    print(
      "note: \(scenario): \(outcome.reloads.count) reloads; the slowest took "
        + "\(worst(outcome.reloads.map(\.switchover))), the longest gap was "
        + "\(worst(outcome.reloads.map(\.longestGap)))")
    let unanswered =
      outcome.failedRequests == 0
      ? "0 requests unanswered"
      : "0 requests unanswered (got \(outcome.failedRequests): \(outcome.firstError ?? "?"))"
    return [
      ResultRow(
        scenario: scenario, unit: "ms", plugboard: milliseconds(outcome.reloads.map(\.switchover)),
        baseline: nil, baselineName: "-", target: "SIGHUP to the new child's first answer (measured)",
        met: nil),
      ResultRow(
        scenario: "\(scenario)_gap", unit: "ms", plugboard: milliseconds(outcome.reloads.map(\.longestGap)),
        baseline: nil, baselineName: "-", target: unanswered, met: outcome.failedRequests == 0),
    ]
  }
}
