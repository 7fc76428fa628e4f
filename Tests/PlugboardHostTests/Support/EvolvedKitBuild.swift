import Foundation
import PlugboardKit

/// A later, compatible release of PlugboardKit, built for real: this
/// checkout's Kit sources with the changes Kit/ABI.md allows within a major
/// version applied, compiled with library evolution into a
/// `libPlugboardKit.so` of its own, and set beside copies of `plugboard` and
/// `plugboard-host` (whose run path reaches `$ORIGIN` after the toolchain's
/// folder, which holds no Kit). That host then runs plugins compiled against
/// this checkout's Kit, as an upgraded host runs plugins nobody rebuilt.
///
/// Built once per test run, with the toolchain's `swiftc` and `clang` (as
/// ``OwnKitBuild``), under the scratch folder, so that the copied plugins
/// lie inside the plugin root test manifests name.
enum EvolvedKitBuild {
  typealias Failure = FixtureFailure

  /// The folder holding `bin/plugboard`, `bin/plugboard-host` and
  /// `bin/libPlugboardKit.so`, or why it could not be made.
  static let host: Result<String, Failure> = Result { try build() }.mapError {
    $0 as? Failure ?? Failure(description: "cannot build the evolved PlugboardKit: \($0)")
  }

  /// The release the evolved Kit announces: the next minor one.
  static var release: String { "\(KitVersions.current.major).\(KitVersions.current.minor + 1).0" }

  /// Each change: the file under `Kit/Sources/PlugboardKit`, the text that
  /// must be there once, and what replaces it. A change whose anchor is
  /// gone fails the build, so that the test never runs against a Kit that
  /// silently lacks a change.
  static var changes: [(file: String, anchor: String, replacement: String)] {
    [
      // A stored property inserted first in the container, in a scope and
      // in the record's extras: types whose layout the rules leave free.
      (
        "Container/Container.swift",
        "public final class Container: _ContainerHotFields, @unchecked Sendable {\n",
        "public final class Container: _ContainerHotFields, @unchecked Sendable {\n"
          + "  let insertedInNextRelease: [Int] = [1, 2, 3]\n"
      ),
      (
        "Scopes/ServiceScope.swift", "public final class ServiceScope: Sendable {\n",
        "public final class ServiceScope: Sendable {\n  let insertedInNextRelease: [String] = [\"scope\"]\n"
      ),
      (
        "Registration/RecordExtras.swift", "final class RecordExtras {\n",
        "final class RecordExtras {\n  var insertedInNextRelease: (Int, Int, Int) = (1, 2, 3)\n"
      ),
      // The version.
      (
        "Plugin/PlugboardBuild.swift",
        "public static var kitRelease: String { \"\(PlugboardBuild.kitRelease)\" }",
        "public static var kitRelease: String { \"\(release)\" }"
      ),
      // A requirement with a default added to a protocol plugins conform to.
      (
        "Assembly/Assembly.swift", "public protocol Assembly {\n",
        "public protocol Assembly {\n  func describedInNextRelease() -> String\n"
      ),
      // A reworded diagnostic.
      (
        "Diagnostics/ResolutionError+Report.swift", "and was resolved synchronously.",
        "and was resolved synchronously (reworded)."
      ),
    ]
  }

  /// Added as a file of its own: a public type, and methods on types
  /// plugins use.
  static let addedSource = """
    /// Added in the next release.
    public struct AddedInNextRelease: Sendable {
      public init() {}
      public var value: Int { 42 }
    }

    extension Container {
      /// Added in the next release.
      public func addedInNextRelease() -> Int { AddedInNextRelease().value }
    }

    extension Assembly {
      public func describedInNextRelease() -> String { "\\(Self.self)" }
    }

    """

  private static func build() throws -> String {
    let kit = BuildProducts.packageRoot + "/Kit/Sources"
    let folder = BuildProducts.scratch + "/plugboard-tests-evolved-kit"
    guard let swiftc = Toolchain.find("swiftc"), let clang = Toolchain.cCompiler else {
      throw Failure(description: "no swiftc, or no C compiler, on PATH")
    }
    let manager = FileManager.default
    try? manager.removeItem(atPath: folder)
    for sub in ["/modules", "/sources", "/bin"] {
      try manager.createDirectory(atPath: folder + sub, withIntermediateDirectories: true)
    }
    try manager.copyItem(atPath: kit + "/PlugboardKit", toPath: folder + "/sources/PlugboardKit")
    for change in changes {
      let file = folder + "/sources/PlugboardKit/" + change.file
      let text = try String(contentsOfFile: file, encoding: .utf8)
      guard text.components(separatedBy: change.anchor).count == 2 else {
        throw Failure(description: "\(change.file) does not hold \(change.anchor.debugDescription) once")
      }
      try text.replacingOccurrences(of: change.anchor, with: change.replacement)
        .write(toFile: file, atomically: true, encoding: .utf8)
    }
    try addedSource.write(
      toFile: folder + "/sources/PlugboardKit/AddedInNextRelease.swift", atomically: true, encoding: .utf8)
    try "module PlugboardABI {\n  umbrella \"\(kit)/PlugboardABI/include\"\n  export *\n}\n"
      .write(toFile: folder + "/modules/module.modulemap", atomically: true, encoding: .utf8)
    // The fingerprint, as the PlugboardStamp build plugin would write it:
    // any text does, since the host decides by the release alone.
    try "extension PlugboardBuild {\n  public static var sourceFingerprint: String { \"evolved\" }\n}\n"
      .write(toFile: folder + "/sources/Fingerprint.swift", atomically: true, encoding: .utf8)
    let sources =
      try manager.subpathsOfDirectory(atPath: folder + "/sources")
      .filter { $0.hasSuffix(".swift") }.sorted().map { folder + "/sources/" + $0 }
    let cSources = try manager.contentsOfDirectory(atPath: kit + "/PlugboardABI").filter {
      $0.hasSuffix(".c")
    }
    .sorted()
    let cObjects = cSources.map { folder + "/abi-" + $0.dropLast(2) + ".o" }
    var steps: [(String, [String])] = zip(cSources, cObjects).map { source, object in
      (
        clang,
        ["-fPIC", "-c", "-I", kit + "/PlugboardABI/include", kit + "/PlugboardABI/" + source, "-o", object]
      )
    }
    steps.append(
      (
        swiftc,
        [
          "-swift-version", "6", "-parse-as-library", "-enable-upcoming-feature", "ExistentialAny",
          "-enable-library-evolution", "-module-name", "PlugboardKit", "-wmo", "-emit-library",
          "-o", folder + "/bin/libPlugboardKit.so", "-Xlinker", "-soname=libPlugboardKit.so",
          "-I", folder + "/modules",
        ] + sources + cObjects
      ))
    for (tool, arguments) in steps {
      let result = try Subprocess.run(tool, arguments)
      guard result.exited, result.status == 0 else {
        throw Failure(description: "\(tool) failed:\n\(result.stdout)\(result.stderr)")
      }
    }
    for executable in ["plugboard", "plugboard-host"] {
      try manager.copyItem(
        atPath: BuildProducts.directory + "/" + executable, toPath: folder + "/bin/" + executable)
    }
    return folder
  }
}

/// Versions of PlugboardKit around this checkout's, for the refusals.
enum KitVersions {
  /// This checkout's release, without the fingerprint.
  static var current: SemanticVersion {
    SemanticVersion(parsing: PlugboardBuild.kitRelease) ?? SemanticVersion(1, 0, 0)
  }

  /// The next major release.
  static var nextMajor: String { "\(current.major + 1).0.0" }
}
