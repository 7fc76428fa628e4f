import Foundation
import PlugboardKit

/// The repository's sample deployment (`plugins.json`), rewritten to load
/// release builds: the manifest names `.build/debug` libraries, and timing
/// debug code would measure the optimizer's absence, not the host.
struct SampleDeployment {
  /// The rewritten manifest, in the benchmark's work folder.
  let manifest: URL
  /// The libraries `plugboard run` loads in the manifest's active profile,
  /// in manifest order: what the bare-dlopen baseline opens.
  let libraries: [String]
  /// What differs from the real deployment (a plugin left out), for the report.
  let notes: [String]

  /// Writes the release manifest into `work`. A third-party plugin with its
  /// own package (a path outside `.build/debug/`) has its release build
  /// made when `buildsMissing` is set; otherwise, or when that build fails,
  /// the plugin is left out and a note says so.
  static func prepare(_ locations: BenchLocations, in work: URL, buildsMissing: Bool)
    -> Result<SampleDeployment, BenchFailure>
  {
    let source = locations.repositoryRoot.appendingPathComponent("plugins.json")
    guard let data = try? Data(contentsOf: source),
      var root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
      let entries = root["plugins"] as? [[String: Any]]
    else {
      return .failure(BenchFailure("cannot read \(source.path) as a plugins.json object"))
    }
    let profile = root["activeProfile"] as? String
    var kept: [[String: Any]] = []
    var libraries: [String] = []
    var notes: [String] = []
    for var entry in entries {
      guard let path = entry["path"] as? String else { continue }
      let name = entry["name"] as? String ?? path
      switch releaseLibrary(for: path, locations, buildsMissing: buildsMissing, work: work) {
      case .success(let library):
        entry["path"] = library
        kept.append(entry)
        if loads(entry, in: profile) { libraries.append(library) }
      case .failure(let failure):
        notes.append("\(name) left out: \(failure)")
      }
    }
    root["plugins"] = kept
    // Drop-in folders are made again in the work folder, each library a
    // link to its release build; they load after the listed plugins, in
    // file-name order, as the real folder's do.
    for folder in root["pluginFolders"] as? [String] ?? [] {
      switch dropIn(folder, locations, in: work) {
      case .success(let found): libraries += found
      case .failure(let failure): return .failure(failure)
      }
    }
    // The manifest is written in the work folder; the libraries stay where
    // they were built, under the repository.
    root["pluginRoots"] = [locations.repositoryRoot.path]
    let manifest = work.appendingPathComponent("sample-release.json")
    do {
      let text = try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys])
      try text.write(to: manifest)
    } catch {
      return .failure(BenchFailure("cannot write \(manifest.path): \(error)"))
    }
    return .success(SampleDeployment(manifest: manifest, libraries: libraries, notes: notes))
  }

  /// `.build/debug/libX.so` becomes the benchmark's own build folder's
  /// `libX.so`; `Some/Package/.build/debug/libX.so` becomes that package's
  /// `.build/release/libX.so`, built if asked to and missing.
  private static func releaseLibrary(
    for path: String, _ locations: BenchLocations, buildsMissing: Bool, work: URL
  ) -> Result<String, BenchFailure> {
    let file = (path as NSString).lastPathComponent
    guard let range = path.range(of: ".build/debug/"), range.lowerBound != path.startIndex else {
      return locations.built(file).map(\.path)
    }
    let package = locations.repositoryRoot.appendingPathComponent(String(path[..<range.lowerBound]))
    let library = package.appendingPathComponent(".build/release/\(file)").path
    if FileManager.default.fileExists(atPath: library) { return .success(library) }
    guard buildsMissing else {
      return .failure(BenchFailure("no release build at \(library) (quick mode does not build it)"))
    }
    return ReleaseBuild(package: package, log: work.appendingPathComponent("build-\(file).log"))
      .run(environment: locations.childEnvironment)
      .flatMap { _ in
        FileManager.default.fileExists(atPath: library)
          ? .success(library) : .failure(BenchFailure("its release build made no \(library)"))
      }
  }

  /// The repository's drop-in folder `folder` as links in `work` to the
  /// release builds of its libraries, which it returns in load order.
  private static func dropIn(_ folder: String, _ locations: BenchLocations, in work: URL)
    -> Result<[String], BenchFailure>
  {
    let source = locations.repositoryRoot.appendingPathComponent(folder)
    let target = work.appendingPathComponent(folder)
    do {
      let names = try FileManager.default.contentsOfDirectory(atPath: source.path)
        .filter { $0.hasPrefix("lib") && $0.hasSuffix(".so") }.sorted {
          Array($0.utf8).lexicographicallyPrecedes($1.utf8)
        }
      try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
      var libraries: [String] = []
      for name in names {
        let library = try locations.built(name).get().path
        try FileManager.default.createSymbolicLink(
          atPath: target.appendingPathComponent(name).path, withDestinationPath: library)
        libraries.append(library)
      }
      return .success(libraries)
    } catch let failure as BenchFailure {
      return .failure(failure)
    } catch {
      return .failure(BenchFailure("cannot make the drop-in folder \(target.path): \(error)"))
    }
  }

  /// Whether `entry` is loaded in `profile`: not disabled, and its
  /// `profiles` (if any) admitting the profile, by Kit's own rule.
  private static func loads(_ entry: [String: Any], in profile: String?) -> Bool {
    if entry["enabled"] as? Bool == false { return false }
    guard let profiles = entry["profiles"] as? [String] else { return true }
    return ProfileCondition(profiles).matches(profile)
  }
}
