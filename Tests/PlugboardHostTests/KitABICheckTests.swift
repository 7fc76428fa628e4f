import Foundation
import PlugboardTestSupport
import Testing

/// `Scripts/check-kit-abi`, run on ABIs made from the committed baselines
/// of every product plugins link: the baselines themselves keep the ABI; a
/// public method gone, from the core or from PlugboardCompat, is a break
/// the same major version refuses, naming the method; a new major version
/// may break it.
@Suite(
  .blocking,
  .enabled(
    if: Toolchain.find("swift-api-digester") != nil, "needs swift-api-digester (part of the Swift toolchain)")
)
struct KitABICheckTests {
  static let script = BuildProducts.packageRoot + "/Scripts/check-kit-abi"
  static func baseline(of module: String) -> String {
    BuildProducts.packageRoot + "/Kit/ABI/\(module).abi.json"
  }

  /// A build folder whose `Modules/PlugboardKit.abi.json` and
  /// `Modules/PlugboardCompat.abi.json` are the baselines with `edit` and
  /// `compat` applied.
  private func build(
    _ edit: (String) -> String = { $0 }, compat: (String) -> String = { $0 }
  ) throws -> TemporaryDirectory {
    let folder = try TemporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: folder.path + "/Modules", withIntermediateDirectories: true)
    let kit = try String(contentsOfFile: Self.baseline(of: "PlugboardKit"), encoding: .utf8)
    _ = try folder.write("Modules/PlugboardKit.abi.json", edit(kit))
    let spellings = try String(contentsOfFile: Self.baseline(of: "PlugboardCompat"), encoding: .utf8)
    _ = try folder.write("Modules/PlugboardCompat.abi.json", compat(spellings))
    return folder
  }

  /// What the check prints of the compatibility product when it is kept.
  private func compatKept(_ version: String) throws -> String {
    "check-kit-abi: PlugboardCompat \(version) keeps the ABI of \(try baseVersion)\n"
  }

  private func check(_ folder: TemporaryDirectory, version: String) throws -> ProcessResult {
    try Subprocess.run(
      Self.script, ["--build", folder.path, "--version", version], in: BuildProducts.packageRoot)
  }

  private var baseVersion: String {
    get throws {
      try String(contentsOfFile: BuildProducts.packageRoot + "/Kit/ABI/baseline-version", encoding: .utf8)
        .trimmingCharacters(in: .whitespacesAndNewlines)
    }
  }

  @Test func theBaselineKeepsItsABI() throws {
    let result = try check(try build(), version: try baseVersion)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout == "check-kit-abi: PlugboardKit \(try baseVersion) keeps the ABI of \(try baseVersion)\n"
        + (try compatKept(try baseVersion)))
  }

  /// `Container.addBehavior(_:)` renamed in the new build: the method
  /// plugins call is gone.
  private func withoutAddBehavior() throws -> TemporaryDirectory {
    try build {
      $0.replacingOccurrences(of: #""name": "addBehavior","#, with: #""name": "addBehaviour","#)
        .replacingOccurrences(
          of: #""printedName": "addBehavior(_:)","#, with: #""printedName": "addBehaviour(_:)","#)
    }
  }

  @Test func aRemovedMethodIsABreakWithinTheMajorVersion() throws {
    let base = try baseVersion
    let result = try check(try withoutAddBehavior(), version: "1.9.0")
    #expect(result.status == 1)
    #expect(result.stdout == (try compatKept("1.9.0")))
    #expect(
      result.stderr == """
        check-kit-abi: PlugboardKit 1.9.0 breaks the ABI of \(base), which plugins built against
        \(base) rely on:
          Func Container.addBehavior(_:) has been renamed to Func addBehaviour(_:)
        Undo the change (Kit/ABI.md says what may change within a major version), or release it as
        PlugboardKit 2.0.0 and rebuild every plugin.

        """)
  }

  /// `OnceGate` renamed: PlugboardKit has no declarations hidden from
  /// plugins, so a utility the host runs too is promised like the rest.
  @Test func everyPublicDeclarationIsPromised() throws {
    let base = try baseVersion
    let renamed = try build {
      $0.replacingOccurrences(of: #""printedName": "OnceGate""#, with: #""printedName": "Gate""#)
        .replacingOccurrences(of: #""name": "OnceGate","#, with: #""name": "Gate","#)
    }
    let result = try check(renamed, version: "1.9.0")
    #expect(result.status == 1)
    #expect(
      result.stderr.hasPrefix("check-kit-abi: PlugboardKit 1.9.0 breaks the ABI of \(base)"),
      "\(result.stderr)")
    #expect(result.stderr.contains("OnceGate"), "\(result.stderr)")
  }

  /// `ObjectScope.singleton` renamed in the compatibility product: plugins
  /// written with its spellings read it, so it keeps its ABI as the core
  /// does.
  @Test func aRenamedCompatDeclarationIsABreakWithinTheMajorVersion() throws {
    let base = try baseVersion
    let renamed = try build(compat: {
      $0.replacingOccurrences(of: #""name": "singleton","#, with: #""name": "shared","#)
        .replacingOccurrences(of: #""printedName": "singleton","#, with: #""printedName": "shared","#)
    })
    let result = try check(renamed, version: "1.9.0")
    #expect(result.status == 1)
    #expect(result.stdout == "check-kit-abi: PlugboardKit 1.9.0 keeps the ABI of \(base)\n")
    #expect(
      result.stderr == """
        check-kit-abi: PlugboardCompat 1.9.0 breaks the ABI of \(base), which plugins built against
        \(base) rely on:
          Var ObjectScope.singleton has been renamed to Var shared
        Undo the change (Kit/ABI.md says what may change within a major version), or release it as
        PlugboardKit 2.0.0 and rebuild every plugin.

        """)
  }

  @Test func aNewMajorVersionMayBreak() throws {
    let result = try check(try withoutAddBehavior(), version: "2.0.0")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.hasPrefix(
        "check-kit-abi: PlugboardKit 2.0.0 breaks the ABI of \(try baseVersion), as a new major version may:\n"
      ))
  }
}
