import Foundation

/// `--versus DIR`: this build's host side by side with another build's, so
/// a change is judged against the commit before it rather than against a
/// figure from another day. `DIR` is another checkout's release build
/// folder (`git worktree add ../before COMMIT`, `swift build -c release`
/// there, then `--versus ../before/.build/release`).
///
/// Each build brings up its own deployments (its own sample plugins, its
/// own generated 200 plugins built against its own Kit), since plugins
/// built against one Kit cannot be loaded by a host of another. The two
/// hosts are launched alternately, as `SideBySide` does for the bare
/// dlopen, so drift falls on both alike. The other build is the table's
/// baseline: a ratio of 1.00× means no measurable difference.
struct VersusBuild {
  let this: BenchLocations
  let other: BenchLocations
  let launches: Int

  /// The rows against the build in `path`, or one row saying why there
  /// are none.
  static func rows(against path: String, quick: Bool) -> [ResultRow] {
    let setup: ProcessSetup
    let other: BenchLocations
    do {
      setup = try ProcessSetup("versus")
      other = try locate(path).get()
    } catch {
      return [.unavailable("versus_sample_run", unit: "ms", reason: "error: \(error)")]
    }
    return VersusBuild(this: setup.locations, other: other, launches: StartupScenarios.launches(quick: quick))
      .run(work: setup.work.url, quick: quick)
  }

  /// Finds the repository above `path` and requires its host there.
  static func locate(_ path: String) -> Result<BenchLocations, BenchFailure> {
    let folder = URL(fileURLWithPath: path).standardizedFileURL
    guard let root = BenchLocations.repositoryRoot(above: folder) else {
      return .failure(
        BenchFailure("--versus \(path): no repository (Package.swift, plugins.json, Kit/) above it"))
    }
    let located = BenchLocations(buildDirectory: folder, repositoryRoot: root)
    return located.built("plugboard").map { _ in located }
  }

  /// `versus_sample_run` (the supervised sample, to its first line) and,
  /// unless `quick`, `versus_generated_200_{run,check,list}` (run to its
  /// first line, check and list to exit).
  func run(work: URL, quick: Bool) -> [ResultRow] {
    print("note: versus: baseline is the build in \(other.buildDirectory.path)")
    var rows = compare(
      "versus_sample", work: work,
      deployment: { locations, folder in
        SampleDeployment.prepare(locations, in: folder, buildsMissing: false).map {
          ($0.manifest, $0.libraries)
        }
      }, commands: ["run"])
    guard !quick else { return rows }
    rows += compare(
      "versus_generated_\(StartupScenarios.generatedPluginCount)", work: work,
      deployment: { locations, folder in
        let sources = GeneratedSources(
          pluginCount: StartupScenarios.generatedPluginCount,
          registrationsPerPlugin: StartupScenarios.registrationsPerPlugin,
          kitPath: locations.repositoryRoot.appendingPathComponent("Kit").path)
        return GeneratedDeployment.prepare(locations, sources: sources, work: folder).map {
          ($0.manifest, $0.libraries)
        }
      }, commands: ["run", "check", "list"])
    return rows
  }

  /// One row per command: this build's host on its deployment against the
  /// other's on its own. Both deployments must load the same number of
  /// libraries, or the comparison would not be like for like.
  private func compare(
    _ scenario: String, work: URL,
    deployment: (BenchLocations, URL) -> Result<(manifest: URL, libraries: [String]), BenchFailure>,
    commands: [String]
  ) -> [ResultRow] {
    func unavailable(_ reason: String) -> [ResultRow] {
      commands.map { .unavailable("\(scenario)_\($0)", unit: "ms", reason: "error: \(reason)") }
    }
    var prepared: [(host: String, manifest: URL, libraries: [String])] = []
    for (index, locations) in [this, other].enumerated() {
      let folder = work.appendingPathComponent("\(scenario)-\(index)")
      do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      } catch {
        return unavailable("cannot make \(folder.path): \(error)")
      }
      switch deployment(locations, folder).flatMap({ ready in
        locations.built("plugboard").map {
          (host: $0.path, manifest: ready.manifest, libraries: ready.libraries)
        }
      }) {
      case .failure(let failure): return unavailable("\(failure)")
      case .success(let ready): prepared.append(ready)
      }
    }
    guard prepared[0].libraries.count == prepared[1].libraries.count else {
      return unavailable(
        "this build loads \(prepared[0].libraries.count) libraries, the other \(prepared[1].libraries.count)")
    }
    return commands.map { command in
      let name = "\(scenario)_\(command)"
      let hosts = prepared.map {
        ChildProcess(
          executable: $0.host, arguments: [command, "--manifest", $0.manifest.path],
          environment: this.childEnvironment)
      }
      let timed = SideBySide(subject: hosts[0], baseline: hosts[1], work: work).run(times: launches)
      switch timed {
      case .failure(let failure):
        return .unavailable(name, unit: "ms", reason: "error: \(failure)")
      case .success(let runs):
        // `run` is timed to the application's first line, as startup_*;
        // check and list to exit, as startup_generated_200_{check,list}.
        let time: (ChildRun) -> Double =
          command == "run" ? { $0.firstLineMilliseconds ?? .nan } : { Double($0.exitNanoseconds) / 1e6 }
        return ResultRow(
          scenario: name, unit: "ms", plugboard: Measurement(samples: runs.subject.map(time)),
          baseline: Measurement(samples: runs.baseline.map(time)), baselineName: "--versus build",
          target: "within noise of the other build", met: nil)
      }
    }
  }
}
