import Foundation
import PlugboardDigest
import PlugboardEngine

/// What hashing costs: the throughput of the host's own SHA-256, and
/// what hashing the sample's seven plugin libraries costs at start-up (the
/// price of pinning every plugin), next to only reading the same files.
struct HashingScenarios {
  let plan: MeasurementPlan

  /// The sample plugins of the root package (plugins.json's first seven).
  static let samplePlugins = ["Networking", "Keychain", "Auth", "AuthMock", "Login", "IssueList", "Shell"]
  static let throughputTarget = 200.0

  func run() -> [ResultRow] {
    [throughput(), samplePlugins()]
  }

  /// `hash_sha256_throughput`: MB/s (10⁶ bytes) over a 4 MiB buffer, in
  /// memory, so it measures the hash and nothing else.
  func throughput() -> ResultRow {
    let bytes = (0..<(4 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    let timing = measure(plan) { count in
      for _ in 0..<count { consume(SHA256.hash(bytes)) }
    }
    let rates = Measurement(samples: timing.samples.map { Double(bytes.count) / $0 * 1e3 })
    return ResultRow(
      scenario: "hash_sha256_throughput", unit: "MB/s", plugboard: rates, baseline: nil, baselineName: "-",
      target: "≥ \(Int(Self.throughputTarget)) MB/s (release)", met: rates.median >= Self.throughputTarget)
  }

  /// `hash_sample_plugins`: reading and hashing the seven release-built
  /// sample libraries, each from its own descriptor as the loader does,
  /// next to only reading them (the files are in the page cache either way).
  func samplePlugins() -> ResultRow {
    let scenario = "hash_sample_plugins"
    let files: [String]
    do {
      let setup = try ProcessSetup("hashing")
      files = try Self.samplePlugins.map { try setup.locations.built("lib\($0).so").get().path }
    } catch {
      return .unavailable(scenario, unit: "ms", reason: "error: \(error)")
    }
    let total = files.reduce(0) {
      $0 + ((try? FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int) ?? 0)
    }
    print("note: \(scenario): \(files.count) libraries, \(total / 1024) KiB in all")
    let hashing = measure(plan) { count in
      for _ in 0..<count {
        for file in files { consume(try? SHA256.hash(file: file).get()) }
      }
    }
    let reading = measure(plan) { count in
      for _ in 0..<count {
        for file in files { consume(FileManager.default.contents(atPath: file)?.count) }
      }
    }
    return ResultRow(
      scenario: scenario, unit: "ms", plugboard: Self.milliseconds(hashing),
      baseline: Self.milliseconds(reading),
      baselineName: "read only", target: "measured (no target)", met: nil)
  }

  private static func milliseconds(_ nanoseconds: Measurement) -> Measurement {
    Measurement(samples: nanoseconds.samples.map { $0 / 1e6 })
  }
}
