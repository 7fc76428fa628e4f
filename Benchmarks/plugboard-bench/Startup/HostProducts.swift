import Foundation

/// The products the process scenarios launch, from the benchmark's own
/// build folder: `swift run plugboard-bench` builds only the benchmark, so
/// the host, the baseline and the sample plugins may be missing.
enum HostProducts {
  /// Builds every product of the root package into the benchmark's build
  /// folder (same scratch folder, same configuration). The sample plugins
  /// come with them. Always, not only when something is missing: products
  /// built against an older PlugboardKit carry its old layouts under the
  /// same Kit version string, and the host would load them. The build is
  /// incremental, so this costs seconds when nothing changed.
  static func ensure(_ locations: BenchLocations, work: URL) -> Result<Void, BenchFailure> {
    // <scratch>/<triple>/<configuration>/plugboard-bench
    let scratch = locations.buildDirectory.deletingLastPathComponent().deletingLastPathComponent()
    return ReleaseBuild(
      package: locations.repositoryRoot, log: work.appendingPathComponent("build-products.log"),
      configuration: locations.buildDirectory.lastPathComponent, scratch: scratch
    ).run(environment: locations.childEnvironment)
  }
}
