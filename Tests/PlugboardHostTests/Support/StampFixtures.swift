import Foundation
import PlugboardKit
import PlugboardStamping

/// A shared module, `StampedContracts`, in three versions, and a plugin,
/// `Stale`, compiled against the first: the case of a contract changed and
/// a plugin not rebuilt. Compiled with the toolchain's `swiftc` (quicker
/// than three packages), each module with the source the `PlugboardStamp`
/// build plugin would add, into a scratch folder beside this build's
/// products named after the sources, so later runs reuse it.
enum StampFixtures {
  typealias Failure = FixtureFailure

  /// The versions of `StampedContracts`.
  enum Contracts: String, CaseIterable {
    /// What `Stale` was compiled against.
    case original
    /// A requirement added to the protocol.
    case requirementAdded
    /// `original` with comments added and the layout changed.
    case commentsOnly

    var source: String {
      switch self {
      case .original:
        return """
          public protocol Greeter: AnyObject {
            func greet() -> String
          }
          """
      case .requirementAdded:
        return """
          public protocol Greeter: AnyObject {
            func greet() -> String
            func farewell() -> String
          }
          """
      case .commentsOnly:
        return """
          /// Greets. (A doc comment the original does not have.)
          public protocol Greeter : AnyObject
          {
            // A line comment, /* and a block comment /* nested */ */
            func greet( ) -> String  /* trailing */
          }
          """
      }
    }

    var stamp: String {
      InterfaceStamp.of([InterfaceStamp.SourceFile(path: "StampedContracts/Greeter.swift", text: source)])
    }
  }

  static let plugin = """
    import PlugboardKit
    import StampedContracts

    @_cdecl("plugboard_entry_v1")
    public func plugboardEntry() -> UnsafeRawPointer {
      PluginExport.descriptor(name: "Stale", version: "1.0.0") { [StaleAssembly()] }
    }

    final class EnglishGreeter: Greeter {
      func greet() -> String { "Hello from a plugin built against the original Greeter" }
    }

    struct GreeterApplication: Application {
      let greeter: any Greeter
      func run(arguments: [String]) async throws -> Int32 {
        print(greeter.greet())
        return 0
      }
    }

    struct StaleAssembly: Assembly {
      func assemble(container: Container) throws {
        container.register((any Greeter).self) { _ in EnglishGreeter() }.dependsOn()
        container.register((any Application).self) { r in GreeterApplication(greeter: try r.resolve()) }
          .dependsOn((any Greeter).self)
      }
    }
    """

  /// The scratch folder: `libStale.so` (compiled against `original`) and,
  /// in a folder per version, `libStampedContracts.so`.
  static let folder: Result<String, Failure> = {
    let key = InterfaceStamp.of(
      [InterfaceStamp.SourceFile(path: "Stale.swift", text: plugin)]
        + Contracts.allCases.map { InterfaceStamp.SourceFile(path: $0.rawValue, text: $0.source) })
    let folder = URL(
      fileURLWithPath: BuildProducts.directory
        + "/../../plugboard-tests-stamps-\(PlugboardBuild.sourceFingerprint)-\(key)"
    ).standardizedFileURL.resolvingSymlinksInPath().path
    if FileManager.default.fileExists(atPath: folder + "/done") { return .success(folder) }
    do {
      try build(into: folder)
      _ = FileManager.default.createFile(atPath: folder + "/done", contents: Data())
      return .success(folder)
    } catch let failure as Failure {
      return .failure(failure)
    } catch {
      return .failure(Failure(description: "cannot build the stamp fixtures: \(error)"))
    }
  }()

  private static func build(into folder: String) throws {
    guard let swiftc = Toolchain.find("swiftc") else { throw Failure(description: "no swiftc on PATH") }
    try? FileManager.default.removeItem(atPath: folder)
    let modules = BuildProducts.directory + "/Modules"
    func run(_ arguments: [String]) throws {
      let result = try Subprocess.run(swiftc, ["-swift-version", "6", "-parse-as-library"] + arguments)
      guard result.exited, result.status == 0 else {
        throw Failure(description: "swiftc failed:\n\(result.stdout)\(result.stderr)")
      }
    }
    func write(_ text: String, _ path: String) throws {
      try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
    for version in Contracts.allCases {
      let out = folder + "/" + version.rawValue
      try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
      try write(version.source, out + "/Greeter.swift")
      try write(
        StampSource.module("StampedContracts", stamp: version.stamp, dependencies: []), out + "/Stamp.swift")
      try run([
        "-emit-library", "-emit-module", "-module-name", "StampedContracts", "-emit-module-path",
        out + "/StampedContracts.swiftmodule", out + "/Greeter.swift", out + "/Stamp.swift",
        "-Xlinker", "-soname=libStampedContracts.so", "-o", out + "/libStampedContracts.so",
      ])
    }
    let original = folder + "/" + Contracts.original.rawValue
    try write(plugin, folder + "/Stale.swift")
    try write(
      StampSource.module(
        "Stale", stamp: "0000000000000000", dependencies: [("StampedContracts", Contracts.original.stamp)]),
      folder + "/StaleStamp.swift")
    try run([
      "-emit-library", "-module-name", "Stale", "-I", original, "-I", modules, "-Xcc",
      "-fmodule-map-file=\(BuildProducts.directory)/PlugboardABI.build/module.modulemap", "-L", original,
      "-lStampedContracts", "-L", BuildProducts.directory, "-lPlugboardKit", "-Xlinker", "-rpath=$ORIGIN",
      folder + "/Stale.swift", folder + "/StaleStamp.swift", "-o", folder + "/libStale.so",
    ])
  }

  /// A deployment in a fresh folder: `libStale.so` beside the `contracts`
  /// version of `libStampedContracts.so`, and a manifest naming the plugin.
  static func deployment(_ contracts: Contracts) throws -> (
    root: TemporaryDirectory, manifest: String, plugin: String
  ) {
    let built = try folder.get()
    let root = try TemporaryDirectory()
    let manager = FileManager.default
    try manager.copyItem(atPath: built + "/libStale.so", toPath: root.path + "/libStale.so")
    try manager.copyItem(
      atPath: built + "/\(contracts.rawValue)/libStampedContracts.so",
      toPath: root.path + "/libStampedContracts.so")
    let manifest = root.path + "/plugins.json"
    try #"{ "formatVersion": 1, "plugins": [ { "name": "Stale", "path": "libStale.so" } ] }"#.write(
      toFile: manifest, atomically: true, encoding: .utf8)
    let plugin = URL(fileURLWithPath: root.path + "/libStale.so").resolvingSymlinksInPath().path
    return (root, manifest, plugin)
  }
}
