import Foundation

/// Where the benchmark finds what it runs: the build directory it was
/// itself built into (so `swift build --scratch-path X` and `.build` both
/// work, and debug never mixes with release) and the repository.
struct BenchLocations {
  /// The folder holding the running benchmark, the `plugboard` host, the
  /// dlopen baseline and the sample plugins' libraries.
  let buildDirectory: URL
  /// The repository root: the folder with the root `Package.swift`.
  let repositoryRoot: URL

  /// Finds both; fails when the benchmark runs outside the repository.
  static func find() -> Result<BenchLocations, BenchFailure> {
    guard
      let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    else {
      return .failure(BenchFailure("cannot read /proc/self/exe to find the build directory"))
    }
    let buildDirectory = URL(fileURLWithPath: executable).deletingLastPathComponent()
    let starts = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath), buildDirectory]
    guard let root = starts.lazy.compactMap(repositoryRoot(above:)).first else {
      return .failure(
        BenchFailure("cannot find the repository (a folder with Package.swift and plugins.json); run from it")
      )
    }
    return .success(BenchLocations(buildDirectory: buildDirectory, repositoryRoot: root))
  }

  /// The nearest folder at or above `start` that is the root package: it
  /// holds plugins.json and Kit/ too, so Kit's own Package.swift is passed over.
  static func repositoryRoot(above start: URL) -> URL? {
    var folder = start.standardizedFileURL
    while true {
      let marks = ["Package.swift", "plugins.json", "Kit/Package.swift"]
      if marks.allSatisfy({ FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) })
      {
        return folder
      }
      let parent = folder.deletingLastPathComponent()
      guard parent.path != folder.path else { return nil }
      folder = parent
    }
  }

  /// A file in the build directory, when it exists.
  func built(_ name: String) -> Result<URL, BenchFailure> {
    let url = buildDirectory.appendingPathComponent(name)
    guard FileManager.default.fileExists(atPath: url.path) else {
      return .failure(BenchFailure("\(name) is not in \(buildDirectory.path); build all products first"))
    }
    return .success(url)
  }

  /// The environment children run in: the benchmark's own, minus what
  /// would change which deployment they bring up.
  var childEnvironment: [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["PLUGBOARD_PROFILE"] = nil
    return environment
  }
}
