import Foundation
import PlugboardKit

/// `Tests/Fixtures/OutsideEmbedder/main.swift` as the executable of a
/// package of its own that depends on this one by path and uses the
/// `PlugboardEngine` product: built once per test run with `swift build
/// --package-path` into a scratch folder beside this build's products
/// named by PlugboardKit's fingerprint, so later runs are incremental.
enum ExternalEmbedderBuild {
  typealias Failure = FixtureFailure

  struct Built {
    /// The executable.
    let executable: String
    /// The build's products folder, holding `Modules/PlugboardEngine.swiftmodule`
    /// and the module maps of the C modules it imports.
    let products: String

    /// `swiftc` flags that find the modules the embedder saw.
    var moduleSearchPaths: [String] {
      [
        "Modules", "PlugboardABI.build", "PlugboardSupervision.build", "PlugboardLaunch.build",
        "PlugboardLoaderModel.build",
      ].flatMap {
        ["-I", products + "/" + $0]
      }
    }
  }

  static let built: Result<Built, Failure> = {
    let root = BuildProducts.packageRoot
    let scratch = URL(
      fileURLWithPath: BuildProducts.directory
        + "/../../plugboard-tests-embedder-\(PlugboardBuild.sourceFingerprint)"
    ).standardizedFileURL.path
    let package = scratch + "/package"
    // A dependency by path is known by its folder's name, lower-cased.
    let identity = URL(fileURLWithPath: root).lastPathComponent.lowercased()
    let manifest = """
      // swift-tools-version:6.0
      import PackageDescription

      let package = Package(
        name: "OutsideEmbedder",
        dependencies: [.package(path: \(String(reflecting: root)))],
        targets: [
          .executableTarget(
            name: "outside-embedder",
            dependencies: [.product(name: "PlugboardEngine", package: \(String(reflecting: identity)))],
            path: "Sources")
        ]
      )
      """
    do {
      try FileManager.default.createDirectory(atPath: package + "/Sources", withIntermediateDirectories: true)
      try Data(manifest.utf8).write(to: URL(fileURLWithPath: package + "/Package.swift"))
      let source = try Data(
        contentsOf: URL(fileURLWithPath: root + "/Tests/Fixtures/OutsideEmbedder/main.swift"))
      try source.write(to: URL(fileURLWithPath: package + "/Sources/main.swift"))
      let result = try Subprocess.run(
        "/usr/bin/env",
        ["swift", "build", "--package-path", package, "--scratch-path", scratch + "/build"])
      guard result.exited, result.status == 0 else {
        return .failure(Failure(description: "swift build failed:\n\(result.stdout)\(result.stderr)"))
      }
      let debug = URL(fileURLWithPath: scratch + "/build/debug").resolvingSymlinksInPath().path
      return .success(Built(executable: debug + "/outside-embedder", products: debug))
    } catch {
      return .failure(Failure(description: "cannot build the outside embedder: \(error)"))
    }
  }()
}
