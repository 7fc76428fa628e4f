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
    // A drop-in folder is named relative to plugins.json and its links
    // point at debug builds: the work folder gets one of the same name
    // linking the release builds instead.
    for folder in root["pluginFolders"] as? [String] ?? [] {
      switch releaseFolder(folder, locations, buildsMissing: buildsMissing, work: work) {
      case .success(let linked): libraries += linked
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

  /// Makes `work/folder` with a link to the release build of every library
  /// the repository's drop-in folder of that name links; returns them in
  /// name order, the order the host loads a drop-in folder in.
  private static func releaseFolder(
    _ folder: String, _ locations: BenchLocations, buildsMissing: Bool, work: URL
  ) -> Result<[String], BenchFailure> {
    let source = locations.repositoryRoot.appendingPathComponent(folder)
    let target = work.appendingPathComponent(folder)
    let files = FileManager.default
    do {
      try files.createDirectory(at: target, withIntermediateDirectories: true)
      var linked: [String] = []
      for name in try files.contentsOfDirectory(atPath: source.path).sorted() where name.hasSuffix(".so") {
        let link = source.appendingPathComponent(name).path
        let destination = (try? files.destinationOfSymbolicLink(atPath: link)) ?? name
        // Relative to the repository, as a manifest's paths are.
        let root = locations.repositoryRoot.standardizedFileURL.path + "/"
        let absolute = URL(fileURLWithPath: destination, relativeTo: source.appendingPathComponent("/"))
          .standardizedFileURL.path
        let relative = absolute.hasPrefix(root) ? String(absolute.dropFirst(root.count)) : absolute
        let library = try releaseLibrary(
          for: relative, locations, buildsMissing: buildsMissing, work: work
        ).get()
        try files.createSymbolicLink(
          atPath: target.appendingPathComponent(name).path, withDestinationPath: library)
        linked.append(library)
      }
      // Its links are made by Scripts/build-deployment, not kept in git:
      // without them the application misses what the drop-ins register.
      guard !linked.isEmpty else {
        return .failure(
          BenchFailure(
            "the drop-in folder \(source.path) links no library; run Scripts/build-deployment first"))
      }
      return .success(linked)
    } catch let failure as BenchFailure {
      return .failure(failure)
    } catch {
      return .failure(BenchFailure("cannot link the drop-in folder \(folder) in \(target.path): \(error)"))
    }
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

  /// Whether `entry` is loaded in `profile`: not disabled, and its
  /// `profiles` (if any) admitting the profile, by Kit's own rule.
  private static func loads(_ entry: [String: Any], in profile: String?) -> Bool {
    if entry["enabled"] as? Bool == false { return false }
    guard let profiles = entry["profiles"] as? [String] else { return true }
    return ProfileCondition(profiles).matches(profile)
  }
}
