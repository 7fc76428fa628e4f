import Foundation
import PlugboardKit
import PlugboardStamping

/// `libOwnKit.so`: a plugin carrying its own copy of PlugboardKit, as a
/// plugin author gets by building Kit's sources into the plugin. SwiftPM
/// cannot express it (two targets may not share sources, and the module must
/// be called `PlugboardKit`), so it is compiled with the toolchain's `swiftc`
/// and `clang`, once per test run, into a scratch folder beside this build's
/// products: PlugboardABI's C files to objects, PlugboardKit's sources to a
/// module and an object, and `Tests/Fixtures/own_kit_plugin.swift` linked
/// with both into a shared library.
enum OwnKitBuild {
  typealias Failure = FixtureFailure

  /// The built library, or why it could not be built.
  static let library: Result<String, Failure> = {
    let kit = BuildProducts.packageRoot + "/Kit/Sources"
    let folder = URL(fileURLWithPath: BuildProducts.directory + "/../../plugboard-tests-ownkit")
      .standardizedFileURL.path
    guard let swiftc = Toolchain.find("swiftc"), let clang = Toolchain.cCompiler else {
      return .failure(Failure(description: "no swiftc, or no C compiler, on PATH"))
    }
    do {
      try? FileManager.default.removeItem(atPath: folder)
      try FileManager.default.createDirectory(atPath: folder + "/modules", withIntermediateDirectories: true)
      // The module map SwiftPM generates for a C target without an umbrella
      // header: every header in its include folder.
      try "module PlugboardABI {\n  umbrella \"\(kit)/PlugboardABI/include\"\n  export *\n}\n"
        .write(toFile: folder + "/modules/module.modulemap", atomically: true, encoding: .utf8)
      // The fingerprint the PlugboardStamp build plugin adds to the module.
      try StampSource.kitFingerprint(stamp: PlugboardBuild.sourceFingerprint)
        .write(toFile: folder + "/KitFingerprint.swift", atomically: true, encoding: .utf8)
      let sources =
        try FileManager.default.subpathsOfDirectory(atPath: kit + "/PlugboardKit")
        .filter { $0.hasSuffix(".swift") }.sorted().map { kit + "/PlugboardKit/" + $0 }
        + [folder + "/KitFingerprint.swift"]
      let cSources = try FileManager.default.contentsOfDirectory(atPath: kit + "/PlugboardABI")
        .filter { $0.hasSuffix(".c") }.sorted()
      let cObjects = cSources.map { folder + "/abi-" + $0.dropLast(2) + ".o" }
      let compileC: [(String, [String])] = zip(cSources, cObjects).map { source, object in
        (
          clang,
          ["-fPIC", "-c", "-I", kit + "/PlugboardABI/include", kit + "/PlugboardABI/" + source, "-o", object]
        )
      }
      let steps: [(String, [String])] =
        compileC + [
          (
            swiftc,
            [
              "-swift-version", "6", "-parse-as-library", "-enable-upcoming-feature", "ExistentialAny",
              "-module-name", "PlugboardKit", "-wmo", "-emit-module", "-emit-module-path",
              folder + "/modules/PlugboardKit.swiftmodule", "-emit-object", "-o", folder + "/kit.o",
              "-I", folder + "/modules", "-Xcc", "-fPIC",
            ] + sources
          ),
          (
            swiftc,
            [
              "-swift-version", "6", "-emit-library", "-module-name", "OwnKit", "-I", folder + "/modules",
              BuildProducts.packageRoot + "/Tests/Fixtures/own_kit_plugin.swift", folder + "/kit.o",
            ] + cObjects + ["-o", folder + "/libOwnKit.so"]
          ),
        ]
      for (tool, arguments) in steps {
        let result = try Subprocess.run(tool, arguments)
        guard result.exited, result.status == 0 else {
          return .failure(Failure(description: "\(tool) failed:\n\(result.stdout)\(result.stderr)"))
        }
      }
      // Canonical, as plugboard prints it.
      return .success(URL(fileURLWithPath: folder + "/libOwnKit.so").resolvingSymlinksInPath().path)
    } catch {
      return .failure(Failure(description: "cannot build libOwnKit.so: \(error)"))
    }
  }()
}
