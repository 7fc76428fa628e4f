import Foundation

/// The scale rows: generated deployments of 200 plugins × 20
/// registrations (the `startup_generated_200` shape), 1,000 × 20 and
/// 50 × 2,000, each command timed against the program that only `dlopen`s
/// the same libraries, launched alternately; and how the cost beyond
/// `dlopen` grows from the small shape to the large ones.
///
/// Only in a full run, and only when asked for (`--only scale`): the two
/// large deployments take a long release build the first time (about a
/// thousand modules), and every later run reuses it while its sources and
/// Kit are unchanged.
struct ScaleScenarios {
  let plan: MeasurementPlan

  /// A generated deployment's shape.
  struct Shape: Equatable {
    let plugins: Int
    let registrations: Int

    var name: String { "\(plugins)x\(registrations)" }
    /// Every registration of the deployment, the application's plugin's
    /// one aside.
    var totalRegistrations: Int { plugins * registrations }
  }

  static let small = Shape(plugins: 200, registrations: 20)
  static let shapes = [
    small, Shape(plugins: 1_000, registrations: 20), Shape(plugins: 50, registrations: 2_000),
  ]

  /// The commands timed on each shape: `run` to the application's first
  /// line, the others to their exit. `explain Application` walks the whole
  /// graph, every plugin's chains included.
  static let commands: [(name: String, arguments: [String])] = [
    ("run", ["run"]), ("check", ["check"]), ("list", ["list"]), ("explain", ["explain", "Application"]),
    ("graph", ["graph"]),
  ]

  /// Launches of each program per command: fewer than the start-up rows,
  /// as a 1,000-plugin launch takes most of a second.
  static let launches = 9

  func run() -> [ResultRow] {
    let setup: ProcessSetup
    do {
      setup = try ProcessSetup("scale")
    } catch {
      return [.unavailable("scale", unit: "ms", reason: "error: \(error)")]
    }
    var perRegistration: [String: [String: Measurement]] = [:]
    var rows: [ResultRow] = []
    for shape in Self.shapes {
      let measured = measure(shape, setup)
      rows += measured.rows
      perRegistration[shape.name] = measured.perRegistration
    }
    return rows + growth(perRegistration)
  }

  /// One shape's rows: the bare `dlopen`, each command's cost beyond it per
  /// plugin, and `run`'s peak resident size.
  private func measure(_ shape: Shape, _ setup: ProcessSetup)
    -> (rows: [ResultRow], perRegistration: [String: Measurement])
  {
    let scenario = "scale_\(shape.name)"
    let locations = setup.locations
    let work = setup.work.url
    let sources = GeneratedSources(
      pluginCount: shape.plugins, registrationsPerPlugin: shape.registrations,
      kitPath: locations.repositoryRoot.appendingPathComponent("Kit").path)
    let prepared = GeneratedDeployment.prepare(locations, sources: sources, work: work).flatMap {
      deployment in
      locations.built("plugboard").flatMap { host in
        locations.built("plugboard-dlopen-baseline").flatMap { bare in
          locations.built("plugboard-peak-rss").map { probe in (deployment, host.path, bare.path, probe.path)
          }
        }
      }
    }
    let (deployment, host, bare, probe): (GeneratedDeployment, String, String, String)
    switch prepared {
    case .failure(let failure):
      return ([.unavailable(scenario, unit: "ms", reason: "error: \(failure)")], [:])
    case .success(let ready): (deployment, host, bare, probe) = ready
    }
    let environment = locations.childEnvironment
    let baseline = ChildProcess(executable: bare, arguments: deployment.libraries, environment: environment)
    let libraries = deployment.libraries.count
    var rows: [ResultRow] = []
    var perRegistration: [String: Measurement] = [:]
    for command in Self.commands {
      let subject = ChildProcess(
        executable: host, arguments: command.arguments + ["--manifest", deployment.manifest.path],
        environment: environment)
      let name = "\(scenario)_\(command.name)"
      switch SideBySide(subject: subject, baseline: baseline, work: work).run(times: Self.launches) {
      case .failure(let failure):
        rows.append(.unavailable(name, unit: "ms/plugin", reason: "error: \(failure)"))
      case .success(let runs):
        let time: (ChildRun) -> UInt64? =
          command.name == "run" ? { $0.firstLineNanoseconds } : { $0.exitNanoseconds }
        if command.name == "run" {
          rows.append(
            ResultRow(
              scenario: "\(scenario)_run_total", unit: "ms",
              plugboard: SideBySide.Runs.milliseconds(runs.subject),
              baseline: SideBySide.Runs.milliseconds(runs.baseline),
              baselineName: "bare dlopen of \(libraries)",
              target: "to the first line", met: nil))
        }
        rows.append(
          ResultRow(
            scenario: name, unit: "ms/plugin",
            plugboard: runs.beyondBaseline(perUnit: Double(libraries), at: time), baseline: nil,
            baselineName: "(\(command.name) − dlopen) / \(libraries)", target: "measured; see growth",
            met: nil))
        perRegistration[command.name] = runs.beyondBaseline(
          perUnit: Double(shape.totalRegistrations) / 1_000, at: time)
      }
    }
    rows.append(
      MemoryScenarios.peakResident(
        "\(scenario)_peak_rss", probe: probe, host: host, bare: bare, manifest: deployment.manifest.path,
        libraries: deployment.libraries, environment: environment, work: work, times: 3))
    return (rows, perRegistration)
  }

  /// `scale_growth_<command>`: the cost beyond `dlopen` per 1,000
  /// registrations at each large shape, against the same at 200 × 20.
  /// Linear growth keeps the ratio near 1; the target leaves room for
  /// noise and for the larger working set's cache misses.
  private func growth(_ perRegistration: [String: [String: Measurement]]) -> [ResultRow] {
    guard let small = perRegistration[Self.small.name] else { return [] }
    var rows: [ResultRow] = []
    for shape in Self.shapes where shape != Self.small {
      for command in Self.commands {
        guard let large = perRegistration[shape.name]?[command.name], let base = small[command.name] else {
          continue
        }
        rows.append(
          ResultRow(
            scenario: "scale_growth_\(shape.name)_\(command.name)", unit: "ms/1k regs", plugboard: large,
            baseline: base, baselineName: "the same at \(Self.small.name)", target: "linear: ≤ 1.5×",
            met: large.median <= 1.5 * base.median))
      }
    }
    return rows
  }
}
