import Foundation
import PlugboardKit
import PlugboardStamping

/// What the fixtures compiled with the toolchain's `swiftc` share: a
/// scratch folder beside this build's products, named after the fixture's
/// sources so later runs reuse it; the compiler; and a deployment of one
/// plugin in a fresh folder.
enum ScratchFixture {
  typealias Failure = FixtureFailure

  /// The folder `prefix-<Kit fingerprint>-<stamp of sources>`, made by
  /// `build` unless an earlier run finished it, or why it could not be.
  static func folder(
    _ prefix: String, sources: [InterfaceStamp.SourceFile], build: (String) throws -> Void
  ) -> Result<String, Failure> {
    let key = InterfaceStamp.of(sources)
    let folder = URL(
      fileURLWithPath: BuildProducts.directory + "/../../\(prefix)-\(PlugboardBuild.sourceFingerprint)-\(key)"
    ).standardizedFileURL.resolvingSymlinksInPath().path
    if FileManager.default.fileExists(atPath: folder + "/done") { return .success(folder) }
    do {
      try? FileManager.default.removeItem(atPath: folder)
      try build(folder)
      _ = FileManager.default.createFile(atPath: folder + "/done", contents: Data())
      return .success(folder)
    } catch let failure as Failure {
      return .failure(failure)
    } catch {
      return .failure(Failure(description: "cannot build the fixtures of \(prefix): \(error)"))
    }
  }

  /// Runs `swiftc` in Swift 6 mode on library sources.
  static func swiftc(_ arguments: [String]) throws {
    guard let swiftc = Toolchain.find("swiftc") else { throw Failure(description: "no swiftc on PATH") }
    let result = try Subprocess.run(swiftc, ["-swift-version", "6", "-parse-as-library"] + arguments)
    guard result.exited, result.status == 0 else {
      throw Failure(description: "swiftc failed:\n\(result.stdout)\(result.stderr)")
    }
  }

  /// The arguments that compile a plugin against this build's PlugboardKit.
  static var kitArguments: [String] {
    [
      "-I", BuildProducts.directory + "/Modules", "-Xcc",
      "-fmodule-map-file=\(BuildProducts.directory)/PlugboardABI.build/module.modulemap", "-L",
      BuildProducts.directory, "-lPlugboardKit", "-Xlinker", "-rpath=$ORIGIN",
    ]
  }

  /// Compiles the shared module `module` from `source` into `folder`
  /// (`<module>.swift`, `lib<module>.so` and its `.swiftmodule`), with the
  /// source the `PlugboardStamp` build plugin adds to a shared module: its
  /// stamp, and its release when it declares `version`. `evolving` builds
  /// it with library evolution, as a versioned module must be.
  static func sharedModule(
    _ module: String, source: String, stamp: String, version: String? = nil, evolving: Bool = false,
    into folder: String
  ) throws {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try source.write(toFile: folder + "/\(module).swift", atomically: true, encoding: .utf8)
    try StampSource.module(module, stamp: stamp, version: version, dependencies: [])
      .write(toFile: folder + "/\(module)Stamp.swift", atomically: true, encoding: .utf8)
    try swiftc(
      ["-emit-library", "-emit-module"] + (evolving ? ["-enable-library-evolution"] : []) + [
        "-module-name", module, "-emit-module-path", folder + "/\(module).swiftmodule",
        folder + "/\(module).swift", folder + "/\(module)Stamp.swift", "-Xlinker", "-soname=lib\(module).so",
        "-o", folder + "/lib\(module).so",
      ])
  }

  /// Compiles the plugin `name` from `source` into `folder/lib<name>.so`
  /// against this build's PlugboardKit and the shared module `module` built
  /// in `shared` (``sharedModule(_:source:stamp:version:evolving:into:)``),
  /// recording that module's `stamp` and, when given, its `version`, as
  /// the build plugin makes a plugin record them.
  static func plugin(
    _ name: String, source: String, against module: String, in shared: String, stamp: String,
    version: String? = nil, into folder: String
  ) throws {
    try source.write(toFile: folder + "/\(name).swift", atomically: true, encoding: .utf8)
    try StampSource.module(
      name, stamp: "0000000000000000", dependencies: [(module, stamp)],
      dependencyVersions: version.map { [(module, $0)] } ?? []
    ).write(toFile: folder + "/\(name)Stamp.swift", atomically: true, encoding: .utf8)
    try swiftc(
      ["-emit-library", "-module-name", name, "-I", shared, "-L", shared, "-l\(module)"] + kitArguments + [
        folder + "/\(name).swift", folder + "/\(name)Stamp.swift", "-o", folder + "/lib\(name).so",
      ])
  }

  /// A fresh folder holding `files` (each copied from its path to its
  /// name) and a manifest naming plugin `name` in `lib<name>.so`; with the
  /// canonical path of each file, by name.
  static func deployment(plugin name: String, files: [(from: String, name: String)]) throws -> (
    root: TemporaryDirectory, manifest: String, canonical: [String: String]
  ) {
    let root = try TemporaryDirectory()
    var canonical: [String: String] = [:]
    for file in files {
      try FileManager.default.copyItem(atPath: file.from, toPath: root.path + "/" + file.name)
      canonical[file.name] = URL(fileURLWithPath: root.path + "/" + file.name).resolvingSymlinksInPath().path
    }
    let manifest = root.path + "/plugins.json"
    try #"{ "formatVersion": 1, "plugins": [ { "name": "\#(name)", "path": "lib\#(name).so" } ] }"#.write(
      toFile: manifest, atomically: true, encoding: .utf8)
    return (root, manifest, canonical)
  }
}
