import Foundation
import PlugboardKit
import PlugboardStamping

/// A later, compatible release of PlugboardKit, built for real: this
/// checkout's Kit sources with the changes Kit/ABI.md allows within a major
/// version applied, compiled with library evolution into a
/// `libPlugboardKit.so` of its own, and a `plugboard-host` compiled from
/// this checkout's host sources against it, beside a copy of the launcher.
/// That host then runs plugins compiled against this checkout's Kit, as an
/// upgraded host runs plugins nobody rebuilt.
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

  /// The evolved host beside a PlugboardKit that breaks its promise: the
  /// evolved Kit with ``removal`` applied, a public method every plugin
  /// built against this checkout calls taken away (renamed, which removes
  /// the symbol all the same), under `broken/bin` of ``host``'s folder with
  /// copies of its `plugboard` and `plugboard-host`, which call nothing of
  /// it. Built once per test run, on first use.
  static let brokenHost: Result<String, Failure> = Result { try buildBroken() }.mapError {
    $0 as? Failure ?? Failure(description: "cannot build the PlugboardKit that removed a method: \($0)")
  }

  /// What the broken Kit changes besides ``changes``: `makeDescriptor`,
  /// which every plugin's inlined `PluginExport.descriptor` calls, renamed.
  static var removal: [(file: String, anchor: String, replacement: String)] {
    [
      (
        "Plugin/PluginExport.swift",
        "  public static func makeDescriptor(\n    name: String, version: String, kitVersion: String, "
          + "swiftVersion: String,\n    requires:",
        "  public static func makeDescriptorSinceBrokenRelease(\n    name: String, version: String, "
          + "kitVersion: String, swiftVersion: String,\n    requires:"
      ),
      (
        "Plugin/PluginExport.swift",
        "    makeDescriptor(\n      name: name, version: version, kitVersion: PlugboardBuild.kitVersion,",
        "    makeDescriptorSinceBrokenRelease(\n      name: name, version: version, "
          + "kitVersion: PlugboardBuild.kitVersion,"
      ),
    ]
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
        "public final class Container: @unchecked Sendable {\n",
        "public final class Container: @unchecked Sendable {\n"
          + "  let insertedInNextRelease: [Int] = [1, 2, 3]\n"
      ),
      // What the resolve inlined into plugins reached before only the
      // fast slot was frozen: the registry and the records (a stored
      // property inserted first in each), the thread's resolution state
      // (one inserted first in its frames' state and in the context), and
      // the load factors of the lookup tables.
      (
        "Registry/Registry.swift", "final class Registry: @unchecked Sendable {\n",
        "final class Registry: @unchecked Sendable {\n  let insertedInNextRelease: (Int, Int) = (1, 2)\n"
      ),
      (
        "Registration/RegistrationRecord.swift", "class RegistrationRecord: @unchecked Sendable {\n",
        "class RegistrationRecord: @unchecked Sendable {\n  let insertedInNextRelease: (Int, Int) = (1, 2)\n"
      ),
      (
        "Resolution/ResolutionContext.swift", "final class ResolutionContext {\n",
        "final class ResolutionContext {\n  let insertedInNextRelease: (Int, Int) = (1, 2)\n"
      ),
      (
        "Resolution/ResolutionContext.swift", "  struct State {\n",
        "  struct State {\n    var insertedInNextRelease: (Int, Int) = (1, 2)\n"
      ),
      (
        "FastPath/FastTable.swift", "    if !isEmpty, (keys + 1) * 2 <= table.mask + 1 {\n",
        "    if !isEmpty, (keys + 1) * 4 <= (table.mask + 1) * 3 {\n"
      ),
      (
        "Registry/QuickNameTable.swift", "    let wanted = count < 4_096 ? count * 2 : count + count / 4\n",
        "    let wanted = count < 4_096 ? count + count / 2 + 1 : count + count / 8\n"
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
      // A case inserted first in two enums plugins switch over, which
      // renumbers every case after it, with the arms Kit's own switches need.
      (
        "Diagnostics/ResolutionError.swift", "  public enum Kind: Sendable {\n",
        "  public enum Kind: Sendable {\n    case deniedInNextRelease\n"
      ),
      (
        "Diagnostics/ResolutionError.swift", "    case .cycle, .factoryFailed, .tooDeep,",
        "    case .deniedInNextRelease, .cycle, .factoryFailed, .tooDeep,"
      ),
      (
        "Diagnostics/ResolutionError+Report.swift",
        "    case .notRegistered:\n      return \"No registration for \\(key).\"",
        "    case .deniedInNextRelease:\n      return \"Denied.\"\n"
          + "    case .notRegistered:\n      return \"No registration for \\(key).\""
      ),
      (
        "Diagnostics/ResolutionError+Report.swift",
        "    switch kind {\n    case .notRegistered:\n      return notRegisteredAction(",
        "    switch kind {\n    case .deniedInNextRelease:\n      return \"Ask for access.\"\n"
          + "    case .notRegistered:\n      return notRegisteredAction("
      ),
      (
        "Diagnostics/ResolutionError+Report.swift",
        "    case .notRegistered: marker = \"✗ not registered\"\n",
        "    case .deniedInNextRelease: marker = \"✗ denied\"\n    case .notRegistered: marker = \"✗ not registered\"\n"
      ),
      (
        "Configuration/ConfigurationError.swift", "  public enum Reason: Sendable, Equatable {\n",
        "  public enum Reason: Sendable, Equatable {\n    case outOfRange(detail: String)\n"
      ),
      (
        "Configuration/ConfigurationError.swift", "    switch reason {\n    case .missing:\n",
        "    switch reason {\n    case .outOfRange(let detail):\n      return \"setting '\\(setting)'\\(from): \\(detail)\"\n"
          + "    case .missing:\n"
      ),
      // A changed inlinable body: `resolve` calls a function added beside
      // the one it called, which stays for the plugins that inlined the
      // earlier body (Kit/ABI.md, rule 2).
      (
        "Container/Container+Resolution.swift",
        "      return try resolveUnregistered(serviceType, name: name)\n",
        "      return try resolveUnregisteredSinceNextRelease(serviceType, name: name)\n"
      ),
    ]
  }

  /// The release the evolved contracts declare: the next minor one.
  static let contractsRelease = "1.1.0"

  /// A later, compatible release of the sample's contracts, as
  /// ``changes`` does Kit's: stored properties inserted first in structs
  /// the plugins make and read, and a requirement with a default added to
  /// a protocol a plugin conforms to.
  static var contractsChanges: [(file: String, anchor: String, replacement: String)] {
    [
      (
        "Issue.swift", "public struct Issue: Codable, Sendable, Equatable {\n",
        "public struct Issue: Codable, Sendable, Equatable {\n  public var labels: [String]? = nil\n"
      ),
      (
        "HTTPRequest.swift", "public struct HTTPRequest: Sendable, CustomStringConvertible {\n",
        "public struct HTTPRequest: Sendable, CustomStringConvertible {\n  public var timeout: Double? = nil\n"
      ),
      (
        "AuthService.swift", "public protocol AuthService: Sendable {\n",
        "public protocol AuthService: Sendable {\n  func logOut(username: String)\n"
      ),
      (
        "ContractsRelease.swift", "// plugboard-contracts-version: 1.0.0\n",
        "// plugboard-contracts-version: \(contractsRelease)\n"
      ),
    ]
  }

  /// Added to the contracts as a file of its own: a public type, and the
  /// default of the added requirement.
  static let addedContractsSource = """
    /// Added in the next release.
    public struct IssueFilter: Sendable {
      public init() {}
    }

    extension AuthService {
      public func logOut(username: String) {}
    }

    """

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

    extension Container {
      /// What `resolve` calls for a key nothing registers, since the next
      /// release.
      @usableFromInline
      func resolveUnregisteredSinceNextRelease<Service>(_ serviceType: Service.Type, name: String?)
        throws -> Service
      {
        try resolveUnregistered(serviceType, name: name)
      }
    }

    """

  private static func build() throws -> String {
    let folder = BuildProducts.scratch + "/plugboard-tests-evolved-kit"
    let compile = try Compile.emptied(folder)
    let manager = FileManager.default
    try buildKit(compile)
    try buildHost(compile)
    try buildContracts(compile)
    // The launcher is C and links no Kit: the checkout's serves.
    try manager.copyItem(atPath: BuildProducts.directory + "/plugboard", toPath: folder + "/bin/plugboard")
    return folder
  }

  private static func buildBroken() throws -> String {
    let evolved = try host.get()
    let folder = evolved + "/broken"
    try buildKit(try Compile.emptied(folder), changes: changes + removal)
    let manager = FileManager.default
    for binary in ["plugboard", "plugboard-host"] {
      try manager.copyItem(atPath: evolved + "/bin/" + binary, toPath: folder + "/bin/" + binary)
    }
    return folder
  }

  /// The evolved Kit: `bin/libPlugboardKit.so`, and its module (with
  /// PlugboardABI's map) under `modules/` for the host to compile against.
  private static func buildKit(
    _ compile: Compile,
    changes: [(file: String, anchor: String, replacement: String)] = EvolvedKitBuild.changes
  ) throws {
    let kit = BuildProducts.packageRoot + "/Kit/Sources"
    let folder = compile.folder
    let manager = FileManager.default
    try manager.copyItem(atPath: kit + "/PlugboardKit", toPath: folder + "/sources/PlugboardKit")
    try apply(changes, under: folder + "/sources/PlugboardKit")
    try addedSource.write(
      toFile: folder + "/sources/PlugboardKit/AddedInNextRelease.swift", atomically: true, encoding: .utf8)
    // The fingerprint, as the PlugboardStamp build plugin would write it:
    // any text does, since the host decides by the release alone.
    try "extension PlugboardBuild {\n  public static var sourceFingerprint: String { \"evolved\" }\n}\n"
      .write(toFile: folder + "/sources/Fingerprint.swift", atomically: true, encoding: .utf8)
    let abi = try compile.cModule("PlugboardABI", at: kit + "/PlugboardABI")
    try compile.swift(
      [
        "-parse-as-library", "-enable-upcoming-feature", "ExistentialAny", "-enable-library-evolution",
        "-module-name", "PlugboardKit", "-emit-module", "-emit-module-path",
        folder + "/modules/PlugboardKit.swiftmodule", "-emit-library", "-o",
        folder + "/bin/libPlugboardKit.so",
        "-Xlinker", "-soname=libPlugboardKit.so",
      ] + (try compile.swiftFiles(in: folder + "/sources")) + abi)
  }

  /// `contracts/libAppContracts.so`: the sample's contracts with
  /// ``contractsChanges``, built with library evolution as their package
  /// builds them, with the source the stamp build plugin adds.
  private static func buildContracts(_ compile: Compile) throws {
    let folder = compile.folder
    let root = folder + "/contracts-sources"
    let sources = root + "/AppContracts"
    let manager = FileManager.default
    for sub in [root, folder + "/contracts"] {
      try manager.createDirectory(atPath: sub, withIntermediateDirectories: true)
    }
    try manager.copyItem(
      atPath: BuildProducts.packageRoot + "/Plugins/Contracts/Sources/AppContracts", toPath: sources)
    try apply(contractsChanges, under: sources)
    try addedContractsSource.write(toFile: sources + "/IssueFilter.swift", atomically: true, encoding: .utf8)
    let files = try compile.swiftFiles(in: sources)
    let stamp = InterfaceStamp.of(
      try files.map {
        InterfaceStamp.SourceFile(
          path: String($0.dropFirst(root.count + 1)), text: try String(contentsOfFile: $0, encoding: .utf8))
      })
    try StampSource.module("AppContracts", stamp: stamp, version: contractsRelease, dependencies: [])
      .write(toFile: folder + "/objects/AppContractsStamp.swift", atomically: true, encoding: .utf8)
    try compile.swift(
      [
        "-parse-as-library", "-enable-upcoming-feature", "ExistentialAny", "-enable-library-evolution",
        "-module-name", "AppContracts", "-emit-library", "-o", folder + "/contracts/libAppContracts.so",
        "-Xlinker", "-soname=libAppContracts.so", folder + "/objects/AppContractsStamp.swift",
      ] + files)
  }

  /// Applies each change to its file under `folder`, failing when its
  /// anchor is not there exactly once.
  private static func apply(
    _ changes: [(file: String, anchor: String, replacement: String)], under folder: String
  )
    throws
  {
    for change in changes {
      let file = folder + "/" + change.file
      let text = try String(contentsOfFile: file, encoding: .utf8)
      guard text.components(separatedBy: change.anchor).count == 2 else {
        throw Failure(description: "\(change.file) does not hold \(change.anchor.debugDescription) once")
      }
      try text.replacingOccurrences(of: change.anchor, with: change.replacement)
        .write(toFile: file, atomically: true, encoding: .utf8)
    }
  }

  /// `bin/plugboard-host`, compiled from this checkout's host sources
  /// against the evolved Kit's module, as a host release is: the engine,
  /// the command line and `main`, with the C modules they import.
  private static func buildHost(_ compile: Compile) throws {
    let host = BuildProducts.packageRoot + "/Host"
    let folder = compile.folder
    let objects =
      try compile.cModule("PlugboardLaunch", at: host + "/PlugboardLaunch")
      + compile.cModule(
        "PlugboardSupervision", at: host + "/PlugboardSupervision",
        including: [host + "/PlugboardLaunch/include"])
      + compile.cModule("PlugboardLoaderModel", at: host + "/PlugboardLoaderModel")
    // As Package.swift's `hostSettings`.
    // SwiftPM names the package `plugboard` for its `package` declarations.
    let settings = [
      "-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors", "-package-name", "plugboard",
    ]
    // In dependency order; the digest and signatures optimized, as
    // Package.swift builds them. The analysis is the checkout's, unchanged:
    // a host release links it in, and it reads the evolved Kit's
    // inspection API.
    let modules = [
      "PlugboardAnalysis", "PlugboardDigest", "PlugboardSignatures", "PlugboardEngine", "PlugboardCLI",
    ]
    for module in modules {
      let sources =
        module == "PlugboardAnalysis"
        ? BuildProducts.packageRoot + "/Analysis/Sources/PlugboardAnalysis" : host + "/" + module
      try compile.swift(
        settings + (["PlugboardDigest", "PlugboardSignatures"].contains(module) ? ["-O"] : [])
          + (module == "PlugboardAnalysis" ? ["-enable-upcoming-feature", "ExistentialAny"] : []) + [
            "-parse-as-library", "-module-name", module, "-emit-module", "-emit-module-path",
            folder + "/modules/\(module).swiftmodule", "-c", "-o", folder + "/objects/\(module).o",
          ] + (try compile.swiftFiles(in: sources)))
    }
    try compile.swift(
      settings + ["-module-name", "PlugboardHost", "-o", folder + "/bin/plugboard-host"]
        + (try compile.swiftFiles(in: host + "/PlugboardHost"))
        + modules.map { folder + "/objects/\($0).o" } + objects
        + ["-L", folder + "/bin", "-lPlugboardKit", "-Xlinker", "-rpath=$ORIGIN"])
  }

  /// The compilers, and the folder they build in.
  private struct Compile {
    let swiftc: String
    let clang: String
    let folder: String

    /// The toolchain's compilers, building in `folder`, made anew and
    /// empty but for the subfolders they write to.
    static func emptied(_ folder: String) throws -> Compile {
      guard let swiftc = Toolchain.find("swiftc"), let clang = Toolchain.cCompiler else {
        throw Failure(description: "no swiftc, or no C compiler, on PATH")
      }
      let manager = FileManager.default
      try? manager.removeItem(atPath: folder)
      for sub in ["/modules", "/sources", "/objects", "/bin"] {
        try manager.createDirectory(atPath: folder + sub, withIntermediateDirectories: true)
      }
      return Compile(swiftc: swiftc, clang: clang, folder: folder)
    }

    /// Compiles a C target's files into objects and maps its module (in
    /// `modules/module.modulemap`, shared by all); returns the objects.
    func cModule(_ name: String, at path: String, including: [String] = []) throws -> [String] {
      let sources = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".c") }
        .sorted()
      var objects: [String] = []
      for source in sources {
        let object = folder + "/objects/\(name)-" + source.dropLast(2) + ".o"
        try run(
          clang,
          ["-fPIC", "-c", "-I", path + "/include"] + including.flatMap { ["-I", $0] } + [
            path + "/" + source, "-o", object,
          ])
        objects.append(object)
      }
      let map = folder + "/modules/module.modulemap"
      let earlier = (try? String(contentsOfFile: map, encoding: .utf8)) ?? ""
      try (earlier + "module \(name) {\n  umbrella \"\(path)/include\"\n  export *\n}\n")
        .write(toFile: map, atomically: true, encoding: .utf8)
      return objects
    }

    /// The Swift files under `path`, sorted.
    func swiftFiles(in path: String) throws -> [String] {
      try FileManager.default.subpathsOfDirectory(atPath: path).filter { $0.hasSuffix(".swift") }.sorted()
        .map { path + "/" + $0 }
    }

    /// Runs `swiftc` in Swift 6 mode, whole module, against `modules/`.
    func swift(_ arguments: [String]) throws {
      try run(swiftc, ["-swift-version", "6", "-wmo", "-I", folder + "/modules"] + arguments)
    }

    private func run(_ tool: String, _ arguments: [String]) throws {
      let result = try Subprocess.run(tool, arguments)
      guard result.exited, result.status == 0 else {
        throw Failure(description: "\(tool) failed:\n\(result.stdout)\(result.stderr)")
      }
    }
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
