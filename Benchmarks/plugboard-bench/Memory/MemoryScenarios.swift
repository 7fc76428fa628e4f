import Foundation
import PlugboardKit

/// The service type the registration-size scenario registers by name.
private protocol MemoryProbe: AnyObject {}
private final class MemoryProbeService: MemoryProbe {}

/// The memory scenarios: the peak resident size of `plugboard run`
/// on the sample deployment, and the heap one registration costs.
struct MemoryScenarios {
  let plan: MeasurementPlan

  static let namedRegistrations = 100_000

  func run() -> [ResultRow] {
    [samplePeakResident(), bytesPerRegistration()]
  }

  /// `memory_sample_peak_rss`: the peak resident size of `plugboard run`
  /// on the release-built sample deployment, next to that of the program
  /// that only dlopens the same libraries; both measured through
  /// `plugboard-peak-rss`, as `wait4` here would report at least the
  /// benchmark's own peak. Uses Analytics' release build only if one exists
  /// (the startup scenario builds it in a full run).
  func samplePeakResident() -> ResultRow {
    let scenario = "memory_sample_peak_rss"
    let setup: ProcessSetup
    let deployment: SampleDeployment
    let probe: String
    let host: String
    let bare: String
    do {
      setup = try ProcessSetup("memory")
      let (locations, work) = (setup.locations, setup.work)
      deployment = try SampleDeployment.prepare(locations, in: work.url, buildsMissing: false).get()
      probe = try locations.built("plugboard-peak-rss").get().path
      host = try locations.built("plugboard").get().path
      bare = try locations.built("plugboard-dlopen-baseline").get().path
    } catch {
      return .unavailable(scenario, unit: "MiB", reason: "error: \(error)")
    }
    for note in deployment.notes { print("note: \(scenario): \(note)") }
    return Self.peakResident(
      scenario, probe: probe, host: host, bare: bare, manifest: deployment.manifest.path,
      libraries: deployment.libraries, environment: setup.locations.childEnvironment, work: setup.work.url,
      times: plan.repetitions)
  }

  /// `plugboard run --manifest manifest`'s peak resident size against the
  /// bare dlopen of `libraries`, both under `plugboard-peak-rss` (`probe`),
  /// launched alternately `times` times: the sample's row and each scale
  /// shape's.
  static func peakResident(
    _ scenario: String, probe: String, host: String, bare: String, manifest: String, libraries: [String],
    environment: [String: String], work: URL, times: Int
  ) -> ResultRow {
    let runs = SideBySide(
      subject: ChildProcess(
        executable: probe, arguments: [host, "run", "--manifest", manifest], environment: environment),
      baseline: ChildProcess(executable: probe, arguments: [bare] + libraries, environment: environment),
      work: work
    ).run(times: times)
    switch runs {
    case .failure(let failure):
      return .unavailable(scenario, unit: "MiB", reason: "error: \(failure)")
    case .success(let runs):
      return ResultRow(
        scenario: scenario, unit: "MiB", plugboard: mebibytes(runs.subject),
        baseline: mebibytes(runs.baseline), baselineName: "bare dlopen of \(libraries.count)",
        target: "measured (no target)", met: nil)
    }
  }

  /// The peaks `plugboard-peak-rss` reported ("peak-rss-kib N" on standard
  /// error), in MiB; a run without that line counts as not measured.
  static func mebibytes(_ runs: [ChildRun]) -> Measurement {
    Measurement(
      samples: runs.map { run in
        let line = run.standardError.split(separator: "\n").last { $0.hasPrefix("peak-rss-kib ") }
        let kibibytes = line.flatMap { Double($0.dropFirst("peak-rss-kib ".count)) }
        return (kibibytes ?? .nan) / 1024
      })
  }

  /// `memory_bytes_per_registration`: heap held by a container of 100,000
  /// named registrations of one type plus the 1,000 `Wide1000` types, after
  /// the first resolution has published its registry; next to a plain
  /// dictionary of the same number of name → factory entries.
  func bytesPerRegistration() -> ResultRow {
    let count = Self.namedRegistrations + 1_000
    // Names are made before the first reading: Swift keeps names this
    // short inline, but an array of them is the caller's, not the container's.
    let names = (0..<Self.namedRegistrations).map { "n\($0)" }
    var container: [Double] = []
    var dictionary: [Double] = []
    for _ in 0..<max(plan.repetitions, 1) {
      container.append(Double(heapGrowth { makeContainer(names: names) }) / Double(count))
      dictionary.append(Double(heapGrowth { makeDictionary(names: names) }) / Double(count))
    }
    let perRegistration = Measurement(samples: container)
    return ResultRow(
      scenario: "memory_bytes_per_registration", unit: "B/reg", plugboard: perRegistration,
      baseline: Measurement(samples: dictionary), baselineName: "[String: factory]",
      target: "≤ 200 B/reg", met: perRegistration.median <= 200)
  }

  /// Heap in use while what `make` returns is alive, less what was in use
  /// before.
  private func heapGrowth<Value>(_ make: () -> Value) -> Int {
    let before = heapInUse()
    let value = make()
    let after = heapInUse()
    withExtendedLifetime(value) {}
    return after - before
  }

  private func makeContainer(names: [String]) -> Container {
    let container = Container()
    for name in names {
      container.register((any MemoryProbe).self, name: name) { _ in MemoryProbeService() }
    }
    Wide1000.register(into: container)
    // The first resolution publishes the registry snapshot resolution reads.
    consume(try? container.resolve((any MemoryProbe).self, name: "n0"))
    return container
  }

  /// What a hand-written registry needs at least: one hashed entry per key.
  private func makeDictionary(names: [String]) -> [String: @Sendable () -> AnyObject] {
    var factories: [String: @Sendable () -> AnyObject] = [:]
    for name in names { factories[name] = { MemoryProbeService() } }
    for index in 0..<1_000 { factories["W\(index)"] = { MemoryProbeService() } }
    return factories
  }
}
