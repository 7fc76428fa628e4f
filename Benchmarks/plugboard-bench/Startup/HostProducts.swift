import Foundation

/// The products the process scenarios launch, from the benchmark's own
/// build folder: `swift run plugboard-bench` builds only the benchmark, so
/// the host, the baseline and the sample plugins may be missing.
enum HostProducts {
  static let executables = ["plugboard", "plugboard-dlopen-baseline", "plugboard-peak-rss"]

  /// Builds every product of the root package into the benchmark's build
  /// folder (same scratch folder, same configuration) when one of the
  /// executables is missing. The sample plugins come with them.
  static func ensure(_ locations: BenchLocations, work: URL) -> Result<Void, BenchFailure> {
    let missing = executables.filter {
      !FileManager.default.fileExists(atPath: locations.buildDirectory.appendingPathComponent($0).path)
    }
    guard !missing.isEmpty else { return .success(()) }
    // <scratch>/<triple>/<configuration>/plugboard-bench
    let scratch = locations.buildDirectory.deletingLastPathComponent().deletingLastPathComponent()
    return ReleaseBuild(
      package: locations.repositoryRoot, log: work.appendingPathComponent("build-products.log"),
      configuration: locations.buildDirectory.lastPathComponent, scratch: scratch
    ).run(environment: locations.childEnvironment)
  }
}
