import Foundation
import PlugboardDigest
import PlugboardKit

@testable import PlugboardCLI
@testable import PlugboardEngine

/// A plugin outside this repository that depends on PlugboardKit and on the
/// sample's contracts by version: `Scripts/export-sdk` exports Kit as a git
/// repository of its own, tagged with Kit's release, then the contracts,
/// whose dependency on Kit by path becomes one on that export by version
/// (`--dependency`); the plugin's package (`Greeter`, written here) depends
/// on both with `.package(url: "file://…", exact:)` and is built with `swift
/// build`, as its vendor would. Once per test run, into a scratch folder
/// beside this build's products, so later runs are incremental.
enum ExportedSDKBuild {
  typealias Failure = FixtureFailure

  /// What the build left for the tests.
  struct Products {
    /// The exported SDK's repository.
    let repository: String
    /// The exported contracts' repository.
    let contracts: String
    /// The plugin package's folder.
    let package: String
    /// The built `libGreeter.so`, canonical, as plugboard prints it.
    let library: String
  }

  /// The line the plugin's `Application` prints (the title of a contracts
  /// type it registers).
  static let greeting = "Hello from a plugin that depends on PlugboardKit and AppContracts by version"

  /// The version the SDK is exported and depended on under.
  static var version: String { PlugboardBuild.kitRelease }

  /// The version the contracts are exported and depended on under.
  static let contractsVersion = "1.0.0"

  /// The exports: the SDK's and the contracts' repositories, in `folder`.
  struct Exports {
    let folder: String
    let repository: String
    let contracts: String
  }

  /// The SDK and the contracts exported as repositories, or why not.
  static let exports: Result<Exports, Failure> = {
    // One folder per content of Kit's files, comments included: a new Kit
    // is a new export under the same tag, and the export refuses a tag
    // that already holds other files, which a comment-only change (the
    // source fingerprint ignores comments) made it hold.
    let folder = URL(
      fileURLWithPath: BuildProducts.directory + "/../../plugboard-tests-sdk-\(kitContentDigest)"
    ).standardizedFileURL.path
    let repository = folder + "/PlugboardKit"
    let contracts = folder + "/AppContracts"
    do {
      for arguments in [
        [repository, version],
        [
          "--package", "Plugins/Contracts", "--dependency", "../../Kit=file://\(repository)@\(version)",
          contracts, contractsVersion,
        ],
      ] {
        let export = try Subprocess.run(BuildProducts.packageRoot + "/Scripts/export-sdk", arguments)
        guard export.exited, export.status == 0 else {
          return .failure(Failure(description: "Scripts/export-sdk \(arguments) failed:\n\(export.stderr)"))
        }
      }
      return .success(Exports(folder: folder, repository: repository, contracts: contracts))
    } catch {
      return .failure(Failure(description: "cannot export the SDK: \(error)"))
    }
  }()

  /// The exported SDK and the plugin built against it, or why not.
  static let products: Result<Products, Failure> = exports.flatMap { exports in
    let package = exports.folder + "/Greeter"
    do {
      try writeIfChanged(
        package + "/Package.swift", manifest(sdk: exports.repository, contracts: exports.contracts))
      try writeIfChanged(package + "/Sources/Greeter/Greeter.swift", source)
      let build = try Subprocess.run(
        "/usr/bin/env",
        ["swift", "build", "--package-path", package, "--scratch-path", exports.folder + "/build"])
      guard build.exited, build.status == 0 else {
        return .failure(Failure(description: "swift build failed:\n\(build.stdout)\(build.stderr)"))
      }
      let library = URL(fileURLWithPath: exports.folder + "/build/debug/libGreeter.so")
        .resolvingSymlinksInPath()
        .path
      return .success(
        Products(
          repository: exports.repository, contracts: exports.contracts, package: package, library: library))
    } catch {
      return .failure(Failure(description: "cannot build the Greeter plugin: \(error)"))
    }
  }

  /// The first 16 hex digits of a SHA-256 over every file of `Kit/` and
  /// of the contracts (what the exports copy), by path and content.
  private static var kitContentDigest: String {
    var bytes: [UInt8] = []
    for folder in ["Kit", "Plugins/Contracts"] {
      let root = BuildProducts.packageRoot + "/" + folder
      let files =
        (FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? [])
        .filter { !$0.hasPrefix(".build") && !$0.contains("/.build") }.sorted()
      for file in files {
        guard let data = FileManager.default.contents(atPath: root + "/" + file) else { continue }
        bytes += Array((folder + "/" + file).utf8) + [0] + Array(data) + [0]
      }
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

  private static func manifest(sdk: String, contracts: String) -> String {
    """
    // swift-tools-version:6.0
    import PackageDescription

    let package = Package(
      name: "Greeter",
      products: [.library(name: "Greeter", type: .dynamic, targets: ["Greeter"])],
      dependencies: [
        .package(url: "file://\(sdk)", exact: "\(version)"),
        .package(url: "file://\(contracts)", exact: "\(contractsVersion)"),
      ],
      targets: [
        .target(
          name: "Greeter",
          dependencies: [
            .product(name: "PlugboardKit", package: "PlugboardKit"),
            .product(name: "AppContracts", package: "AppContracts"),
          ])
      ]
    )

    """
  }

  private static let source = """
    import AppContracts
    import PlugboardKit

    @_cdecl("plugboard_entry_v1")
    public func plugboardEntry() -> UnsafeRawPointer {
      PluginExport.descriptor(name: "Greeter", version: "1.0.0") { [GreeterAssembly()] }
    }

    struct GreeterAssembly: Assembly {
      func assemble(container: Container) throws {
        container.register(Issue.self) { _ in Issue(number: 1, title: "\(greeting)") }.dependsOn()
        container.register((any Application).self) { r in Greeter(issue: try r.resolve()) }
          .dependsOn(Issue.self)
      }
    }

    struct Greeter: Application {
      let issue: Issue

      func run(arguments: [String]) async throws -> Int32 {
        print(issue.title)
        return 0
      }
    }

    """
}
