import Foundation
import PlugboardKit

@testable import PlugboardHost

/// A plugin outside this repository that depends on PlugboardKit by version:
/// `Scripts/export-sdk` exports Kit as a git repository of its own, tagged
/// with Kit's release, and the plugin's package (`Greeter`, written here)
/// depends on it with `.package(url: "file://…", exact:)` and is built with
/// `swift build`, as its vendor would. Once per test run, into a scratch
/// folder beside this build's products, so later runs are incremental.
enum ExportedSDKBuild {
  typealias Failure = FixtureFailure

  /// What the build left for the tests.
  struct Products {
    /// The exported SDK's repository.
    let repository: String
    /// The plugin package's folder.
    let package: String
    /// The built `libGreeter.so`, canonical, as plugboard prints it.
    let library: String
  }

  /// The line the plugin's `Application` prints.
  static let greeting = "Hello from a plugin that depends on PlugboardKit by version"

  /// The version the SDK is exported and depended on under.
  static var version: String { PlugboardBuild.kitRelease }

  /// The exported SDK and the plugin built against it, or why not.
  static let products: Result<Products, Failure> = {
    // One folder per content of Kit's files, comments included: a new Kit
    // is a new export under the same tag, and the export refuses a tag
    // that already holds other files, which a comment-only change (the
    // source fingerprint ignores comments) made it hold.
    let folder = URL(
      fileURLWithPath: BuildProducts.directory + "/../../plugboard-tests-sdk-\(kitContentDigest)"
    ).standardizedFileURL.path
    let repository = folder + "/PlugboardKit"
    let package = folder + "/Greeter"
    do {
      let export = try Subprocess.run(
        BuildProducts.packageRoot + "/Scripts/export-sdk", [repository, version])
      guard export.exited, export.status == 0 else {
        return .failure(Failure(description: "Scripts/export-sdk failed:\n\(export.stderr)"))
      }
      try writeIfChanged(package + "/Package.swift", manifest(sdk: repository))
      try writeIfChanged(package + "/Sources/Greeter/Greeter.swift", source)
      let build = try Subprocess.run(
        "/usr/bin/env", ["swift", "build", "--package-path", package, "--scratch-path", folder + "/build"])
      guard build.exited, build.status == 0 else {
        return .failure(Failure(description: "swift build failed:\n\(build.stdout)\(build.stderr)"))
      }
      let library = URL(fileURLWithPath: folder + "/build/debug/libGreeter.so").resolvingSymlinksInPath().path
      return .success(Products(repository: repository, package: package, library: library))
    } catch {
      return .failure(Failure(description: "cannot build the Greeter plugin: \(error)"))
    }
  }()

  /// The first 16 hex digits of a SHA-256 over every file of `Kit/`
  /// (what the export copies), by path and content.
  private static var kitContentDigest: String {
    let kit = BuildProducts.packageRoot + "/Kit"
    let files =
      (FileManager.default.enumerator(atPath: kit)?.compactMap { $0 as? String } ?? [])
      .filter { !$0.hasPrefix(".build") && !$0.contains("/.build") }.sorted()
    var bytes: [UInt8] = []
    for file in files {
      guard let data = FileManager.default.contents(atPath: kit + "/" + file) else { continue }
      bytes += Array(file.utf8) + [0] + Array(data) + [0]
    }
    return String(SHA256.hash(bytes).hex.prefix(16))
  }

  /// Writes only when the text differs, so that an unchanged package is
  /// not rebuilt.
  private static func writeIfChanged(_ path: String, _ text: String) throws {
    if (try? String(contentsOfFile: path, encoding: .utf8)) == text { return }
    try FileManager.default.createDirectory(
      atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
  }

  private static func manifest(sdk: String) -> String {
    """
    // swift-tools-version:6.0
    import PackageDescription

    let package = Package(
      name: "Greeter",
      products: [.library(name: "Greeter", type: .dynamic, targets: ["Greeter"])],
      dependencies: [.package(url: "file://\(sdk)", exact: "\(version)")],
      targets: [
        .target(name: "Greeter", dependencies: [.product(name: "PlugboardKit", package: "PlugboardKit")])
      ]
    )

    """
  }

  private static let source = """
    import PlugboardKit

    @_cdecl("plugboard_entry_v1")
    public func plugboardEntry() -> UnsafeRawPointer {
      PluginExport.descriptor(name: "Greeter", version: "1.0.0") { [GreeterAssembly()] }
    }

    struct GreeterAssembly: Assembly {
      func assemble(container: Container) throws {
        container.register((any Application).self) { _ in Greeter() }.dependsOn()
      }
    }

    struct Greeter: Application {
      func run(arguments: [String]) async throws -> Int32 {
        print("\(greeting)")
        return 0
      }
    }

    """
}
