import Foundation
import PlugboardKit

/// A generated deployment (`startup_generated_200`, the `scale_` rows):
/// its package written under `.build/bench-generated…/` (git ignores
/// `.build`), built once in release, and a manifest naming its libraries.
struct GeneratedDeployment {
  let manifest: URL
  /// Every library, in manifest order: what the baseline opens.
  let libraries: [String]

  /// Where a deployment of this shape is written and built: the 200 × 20
  /// one keeps the folder it always had, so its build is reused.
  static func folder(for sources: GeneratedSources) -> String {
    let shape = (sources.pluginCount, sources.registrationsPerPlugin)
    return shape == (200, 20)
      ? ".build/bench-generated" : ".build/bench-generated-\(shape.0)x\(shape.1)"
  }

  /// Writes the sources (only files whose text changed, so SwiftPM's
  /// incremental build stays valid), builds them unless the stamp says the
  /// same sources were built against the same Kit by the same compiler,
  /// and writes the manifest into `work`.
  static func prepare(_ locations: BenchLocations, sources: GeneratedSources, work: URL)
    -> Result<GeneratedDeployment, BenchFailure>
  {
    let package = locations.repositoryRoot.appendingPathComponent(folder(for: sources))
    var fingerprint = Fingerprint()
    fingerprint.add(PlugboardBuild.compilerVersion)
    for file in sources.files {
      let url = package.appendingPathComponent(file.path)
      fingerprint.add(file.path)
      fingerprint.add(file.contents)
      guard (try? String(contentsOf: url, encoding: .utf8)) != file.contents else { continue }
      do {
        try FileManager.default.createDirectory(
          at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try file.contents.write(to: url, atomically: true, encoding: .utf8)
      } catch {
        return .failure(BenchFailure("cannot write \(url.path): \(error)"))
      }
    }
    // The plugins are compiled against Kit's interface: a changed Kit
    // means they must be rebuilt, or they would load against another ABI.
    fingerprint.addTree(URL(fileURLWithPath: sources.kitPath).appendingPathComponent("Sources"))
    let libraries = sources.pluginNames.map {
      package.appendingPathComponent(".build/release/lib\($0).so").path
    }
    let stamp = package.appendingPathComponent("built.stamp")
    let built = (try? String(contentsOf: stamp, encoding: .utf8)) == fingerprint.hex
    if !built || !libraries.allSatisfy(FileManager.default.fileExists(atPath:)) {
      // From scratch: an incremental build of a package does not notice
      // source files added to a package it depends on by path (seen with
      // PlugboardKit here), and the fingerprint changes exactly when
      // those sources do.
      try? FileManager.default.removeItem(at: package.appendingPathComponent(".build"))
      let build = ReleaseBuild(package: package, log: package.appendingPathComponent("build.log"))
      if case .failure(let failure) = build.run(environment: locations.childEnvironment) {
        return .failure(failure)
      }
      try? fingerprint.hex.write(to: stamp, atomically: true, encoding: .utf8)
    }
    let manifest = work.appendingPathComponent(
      "generated-\(sources.pluginCount)x\(sources.registrationsPerPlugin).json")
    let entries = zip(sources.pluginNames, libraries).map { ["name": $0, "path": $1] }
    do {
      let object: [String: Any] = [
        "formatVersion": 1, "plugins": entries, "pluginRoots": [locations.repositoryRoot.path],
      ]
      try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        .write(to: manifest)
    } catch {
      return .failure(BenchFailure("cannot write \(manifest.path): \(error)"))
    }
    return .success(GeneratedDeployment(manifest: manifest, libraries: libraries))
  }
}
