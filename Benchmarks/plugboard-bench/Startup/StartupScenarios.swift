import Foundation

/// The process scenarios of `startup`: wall time from launching
/// `plugboard run` to the application's first line of output, against a
/// program that only `dlopen`s the same libraries, launched alternately in
/// the same run. Release builds, from the benchmark's own build folder.
struct StartupScenarios {
  let plan: MeasurementPlan
  let quick: Bool
  /// `--only`: `startup` (or nothing) runs both groups; `startup_sample…`
  /// or `startup_generated…` one of them (every row of that group).
  var only: String? = nil
  /// `--before DIR`: a folder holding another build's `plugboard` and
  /// `plugboard-host` (of the same Kit, so the same release plugins load
  /// in both), timed on the same manifest in the same run: the
  /// `startup_sample` and `_unsupervised` rows before and after a change
  /// to the host, each against the bare dlopen launched beside it.
  var before: String? = nil

  static let generatedPluginCount = 200
  static let registrationsPerPlugin = 20

  /// Launches of each program per scenario in a full run: enough that the
  /// median of a row of about 20 ms moves by a few hundredths of its ratio
  /// between runs on a machine of two processors, where 21 launches let
  /// the signed row's ratio move by a tenth.
  static func launches(quick: Bool) -> Int { quick ? 2 : 61 }
  private var launches: Int { Self.launches(quick: quick) }

  func run() -> [ResultRow] {
    let setup: ProcessSetup
    do {
      setup = try ProcessSetup("startup")
    } catch {
      return [ResultRow.unavailable("startup_sample", unit: "ms", reason: "error: \(error)")]
    }
    // `run` validates the dependency graph before it starts the app (the
    // checker without probes); startup_generated_200_check also times the
    // full `plugboard check`, probes of unloaded plugins included, and
    // startup_generated_200_list `plugboard list`.
    let wanted = { (group: String) in ScenarioGroup.isWanted(group, only: only) }
    return (wanted("startup_sample") ? sample(setup.locations, work: setup.work.url) : [])
      + (wanted("startup_generated") ? generated(setup.locations, work: setup.work.url) : [])
  }

  /// `startup_sample`: the repository's deployment, release-built, under
  /// the supervisor (the default) and `--unsupervised`, each against the
  /// bare-dlopen program in the same run; and the cost a re-executing
  /// supervisor would add: one more start of the host (`--version`).
  func sample(_ locations: BenchLocations, work: URL) -> [ResultRow] {
    let scenario = "startup_sample"
    let prepared = SampleDeployment.prepare(locations, in: work, buildsMissing: !quick).flatMap {
      deployment in
      for note in deployment.notes { print("note: \(scenario): \(note)") }
      return launchers(locations, manifest: deployment.manifest, libraries: deployment.libraries, work: work)
        .map { (deployment, $0) }
    }
    let deployment: SampleDeployment
    let launch: (run: ChildProcess, baseline: ChildProcess)
    switch prepared {
    case .failure(let failure): return [.unavailable(scenario, unit: "ms", reason: "error: \(failure)")]
    case .success(let ready): (deployment, launch) = ready
    }
    let bareName = "bare dlopen of \(deployment.libraries.count)"
    func row(
      _ name: String, _ subject: ChildProcess, target: String, limit: Double?,
      versus baseline: (process: ChildProcess, name: String)? = nil
    ) -> ResultRow {
      let baseline = baseline ?? (launch.baseline, bareName)
      switch SideBySide(subject: subject, baseline: baseline.process, work: work).run(times: launches) {
      case .failure(let failure):
        return .unavailable(name, unit: "ms", reason: "error: \(failure)")
      case .success(let runs):
        let run = SideBySide.Runs.milliseconds(runs.subject)
        let bare = SideBySide.Runs.milliseconds(runs.baseline)
        return ResultRow(
          scenario: name, unit: "ms", plugboard: run, baseline: bare, baselineName: baseline.name,
          target: target,
          met: limit.map { run.median <= $0 * bare.median })
      }
    }
    let unsupervised = ChildProcess(
      executable: launch.run.executable, arguments: launch.run.arguments + ["--unsupervised"],
      environment: launch.run.environment)
    let version = ChildProcess(
      executable: launch.run.executable, arguments: ["--version"], environment: launch.run.environment)
    let pinnedRow: ResultRow
    switch pinned(deployment.manifest, plugboard: launch.run, work: work) {
    case .failure(let failure):
      pinnedRow = .unavailable("\(scenario)_pinned", unit: "ms", reason: "error: \(failure)")
    case .success(let manifest):
      let run = ChildProcess(
        executable: launch.run.executable, arguments: ["run", "--manifest", manifest.path],
        environment: launch.run.environment)
      pinnedRow = row("\(scenario)_pinned", run, target: "what pins add: hashing, sealed copies", limit: nil)
    }
    var beforeRows: [ResultRow] = []
    if let before {
      let host = URL(fileURLWithPath: before).appendingPathComponent("plugboard").path
      let earlier = ChildProcess(
        executable: host, arguments: launch.run.arguments, environment: launch.run.environment)
      let earlierUnsupervised = ChildProcess(
        executable: host, arguments: unsupervised.arguments, environment: launch.run.environment)
      beforeRows = [
        row("\(scenario) (--before build)", earlier, target: "≤ 1.3× bare dlopen (supervised)", limit: 1.3),
        row(
          "\(scenario)_unsupervised (--before build)", earlierUnsupervised, target: "measured (no target)",
          limit: nil),
        // The two hosts launched alternately: drift falls on both alike.
        row(
          "\(scenario), this build against --before", launch.run, target: "< 1× (faster than before)",
          limit: nil, versus: (earlier, "--before build")),
      ]
    }
    return beforeRows + [
      row(scenario, launch.run, target: "≤ 1.3× bare dlopen (supervised)", limit: 1.3),
      row("\(scenario)_unsupervised", unsupervised, target: "measured (no target)", limit: nil),
      pinnedRow,
    ]
      + signedRows(deployment, plugboard: launch.run, work: work) { name, subject, target, limit in
        // Against the unsigned sample, launched alternately in the same run.
        row(name, subject, target: target, limit: limit, versus: (launch.run, "unsigned sample"))
      } + [row("startup_host_exec", version, target: "what re-exec would add", limit: nil)]
  }

  /// `startup_sample_signed`: the sample with every library signed and
  /// signatures required (``SignedSample``), started as a unit with
  /// `CacheDirectory=` starts it, so each start after the first holds the
  /// signatures to the proofs the first kept; `_first_start`: the same
  /// without that folder, every signature hashed and checked, as at the
  /// first start after an update. Timed by `row` (name, subject, target,
  /// limit); the signatures are removed from the build folder afterwards.
  private func signedRows(
    _ deployment: SampleDeployment, plugboard: ChildProcess, work: URL,
    row: (String, ChildProcess, String, Double?) -> ResultRow
  ) -> [ResultRow] {
    let name = "startup_sample_signed"
    let firstStart = name + "_first_start"
    switch SignedSample.prepare(deployment, work: work, environment: plugboard.environment) {
    case .failure(let failure):
      return [.unavailable(name, unit: "ms", reason: "error: \(failure)")]
    case .success(let signed):
      defer { signed.removeSignatures() }
      let cache = work.appendingPathComponent("signature-cache")
      do {
        try FileManager.default.createDirectory(
          at: cache, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
      } catch {
        return [.unavailable(name, unit: "ms", reason: "error: cannot make \(cache.path): \(error)")]
      }
      var kept = plugboard.environment
      kept["CACHE_DIRECTORY"] = cache.path
      let arguments = ["run", "--manifest", signed.manifest.path]
      let run = ChildProcess(executable: plugboard.executable, arguments: arguments, environment: kept)
      var uncached = plugboard.environment
      uncached["CACHE_DIRECTORY"] = nil
      let first = ChildProcess(executable: plugboard.executable, arguments: arguments, environment: uncached)
      // A deployment that does not come up would time its refusal; this
      // run also keeps the proofs the timed ones use.
      if case .failure(let failure) = run.checkedRun(errorFile: work.appendingPathComponent("signed.stderr"))
      {
        return [.unavailable(name, unit: "ms", reason: "error: \(failure)")]
      }
      return [
        row(name, run, "≤ 1.1× unsigned (what verifying signatures adds)", 1.1),
        row(firstStart, first, "measured (every signature hashed and checked)", nil),
      ]
    }
  }

  /// `startup_sample_pinned`'s manifest: the sample's with
  /// `"requirePins": true`, pinned by `plugboard pin`, so that every plugin
  /// and neighbour is hashed and loaded from a sealed copy.
  private func pinned(_ manifest: URL, plugboard: ChildProcess, work: URL) -> Result<URL, BenchFailure> {
    let pinned = work.appendingPathComponent("sample-release-pinned.json")
    guard let data = try? Data(contentsOf: manifest),
      var root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    else { return .failure(BenchFailure("cannot read \(manifest.path)")) }
    root["requirePins"] = true
    do {
      try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys]).write(
        to: pinned)
    } catch {
      return .failure(BenchFailure("cannot write \(pinned.path): \(error)"))
    }
    let pin = ChildProcess(
      executable: plugboard.executable, arguments: ["pin", "--manifest", pinned.path],
      environment: plugboard.environment)
    return pin.checkedRun(errorFile: work.appendingPathComponent("pin.stderr")).map { _ in pinned }
  }

  /// `startup_generated_200`: 200 generated plugins of 20 registrations
  /// and the application's plugin; the total, the cost per plugin beyond
  /// dlopen for `run`, and the same for `check` (which validates) and
  /// `list` (target: ≤ 0.15 ms per plugin for both).
  func generated(_ locations: BenchLocations, work: URL) -> [ResultRow] {
    let scenario = "startup_generated_\(Self.generatedPluginCount)"
    guard !quick else {
      return [.unavailable(scenario, unit: "ms", reason: "skipped in --quick (needs a long build)")]
    }
    let sources = GeneratedSources(
      pluginCount: Self.generatedPluginCount, registrationsPerPlugin: Self.registrationsPerPlugin,
      kitPath: locations.repositoryRoot.appendingPathComponent("Kit").path)
    let prepared = GeneratedDeployment.prepare(locations, sources: sources, work: work).flatMap {
      deployment in
      launchers(locations, manifest: deployment.manifest, libraries: deployment.libraries, work: work)
        .map { (deployment, $0) }
    }
    let deployment: GeneratedDeployment
    let launch: (run: ChildProcess, baseline: ChildProcess)
    switch prepared {
    case .failure(let failure): return [.unavailable(scenario, unit: "ms", reason: "error: \(failure)")]
    case .success(let ready): (deployment, launch) = ready
    }
    let plugins = deployment.libraries.count
    let timedRun = SideBySide(subject: launch.run, baseline: launch.baseline, work: work).run(times: launches)
    var rows: [ResultRow] = []
    if case .success(let runs) = timedRun {
      rows.append(
        ResultRow(
          scenario: scenario, unit: "ms", plugboard: SideBySide.Runs.milliseconds(runs.subject),
          baseline: SideBySide.Runs.milliseconds(runs.baseline), baselineName: "bare dlopen of \(plugins)",
          target: "see per plugin", met: nil))
    }
    rows.append(
      perPlugin(
        "\(scenario)_per_plugin", timedRun, plugins: plugins, command: "run", at: { $0.firstLineNanoseconds },
        target: "< 0.5 ms incl. run's graph validation", limit: 0.5))
    // `check` brings the deployment up and validates the whole graph, then
    // prints its report and exits; `list` loads every plugin and prints
    // each registration by name. Both are timed to exit, as is the baseline.
    for (command, target) in [("check", "≤ 0.15 ms incl. validation"), ("list", "≤ 0.15 ms")] {
      let child = ChildProcess(
        executable: launch.run.executable, arguments: [command, "--manifest", deployment.manifest.path],
        environment: launch.run.environment)
      rows.append(
        perPlugin(
          "\(scenario)_\(command)",
          SideBySide(subject: child, baseline: launch.baseline, work: work).run(times: launches),
          plugins: plugins, command: command, at: { $0.exitNanoseconds }, target: target, limit: 0.15))
    }
    return rows
  }

  /// The subject's time beyond the baseline's, per plugin, against
  /// `limit` ms.
  private func perPlugin(
    _ scenario: String, _ timed: Result<SideBySide.Runs, BenchFailure>, plugins: Int, command: String,
    at time: (ChildRun) -> UInt64?, target: String, limit: Double
  ) -> ResultRow {
    switch timed {
    case .failure(let failure):
      return .unavailable(scenario, unit: "ms/plugin", reason: "error: \(failure)")
    case .success(let runs):
      let beyond = runs.beyondBaseline(perUnit: Double(plugins), at: time)
      return ResultRow(
        scenario: scenario, unit: "ms/plugin", plugboard: beyond, baseline: nil,
        baselineName: "(\(command) − dlopen) / \(plugins)", target: target, met: beyond.median <= limit)
    }
  }

  /// `plugboard run --manifest M` and the baseline opening `libraries`.
  private func launchers(_ locations: BenchLocations, manifest: URL, libraries: [String], work: URL)
    -> Result<(run: ChildProcess, baseline: ChildProcess), BenchFailure>
  {
    locations.built("plugboard").flatMap { host in
      locations.built("plugboard-dlopen-baseline").map { bare in
        let environment = locations.childEnvironment
        return (
          ChildProcess(
            executable: host.path, arguments: ["run", "--manifest", manifest.path], environment: environment),
          ChildProcess(executable: bare.path, arguments: libraries, environment: environment)
        )
      }
    }
  }
}
