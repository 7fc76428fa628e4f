import Foundation
import PlugboardKit
import PlugboardStamping
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// A shared module that declares its release and is built with library
/// evolution makes plugins the promise PlugboardKit makes: a plugin
/// compiled against 1.1.0 runs with a later 1.x that inserted an enum case,
/// a stored property and a protocol requirement with a default, and is
/// refused, before any of its code runs, with an earlier minor release or
/// another major one, naming both versions, the file loaded and the fix.
@Suite(.blocking) struct VersionedContractsTests {
  typealias Release = VersionedContractsFixtures.Release

  @Test(arguments: [Release.compiledAgainst, .laterMinor])
  func aCompatibleReleaseRunsThePlugin(release: Release) throws {
    let deployment = try VersionedContractsFixtures.deployment(release)
    let result = try Subprocess.plugboard(["run", "--manifest", deployment.manifest])
    #expect(result.exited && result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout == VersionedContractsFixtures.output)
    let check = try Subprocess.plugboard(["check", "--manifest", deployment.manifest])
    #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
  }

  @Test(arguments: ["run", "check"])
  func anEarlierMinorReleaseIsRefused(command: String) throws {
    let deployment = try VersionedContractsFixtures.deployment(.earlierMinor)
    let result = try Subprocess.plugboard([command, "--manifest", deployment.manifest])
    #expect(result.exited, "plugboard was killed by a signal: \(result.stderr)")
    #expect(result.status == (command == "run" ? 78 : 1))
    let line =
      "check versions: plugin 'Versioned' (\(deployment.plugin)) was compiled against VersionedContracts "
      + "1.1.0, newer than the VersionedContracts 1.0.0 loaded from \(deployment.contracts): it may call "
      + "what that VersionedContracts lacks — deploy VersionedContracts 1.1.0 or a later 1.x, or rebuild "
      + "the plugin against the loaded VersionedContracts: \(RebuildCommand.forLibrary(at: deployment.plugin))"
    #expect((result.stdout + result.stderr).contains(line), "\(result.stdout)\(result.stderr)")
    #expect(!result.stdout.contains("Hello"))
  }

  @Test func anotherMajorReleaseIsRefused() throws {
    let deployment = try VersionedContractsFixtures.deployment(.nextMajor)
    let result = try Subprocess.plugboard(["run", "--manifest", deployment.manifest])
    #expect(result.exited && result.status == 78, "\(result.stdout)\(result.stderr)")
    let line =
      "check versions: plugin 'Versioned' (\(deployment.plugin)) was compiled against VersionedContracts "
      + "1.1.0; the VersionedContracts loaded from \(deployment.contracts) is 2.0.0, another major version, "
      + "which promises no compatibility — rebuild the plugin against the loaded VersionedContracts: "
      + RebuildCommand.forLibrary(at: deployment.plugin)
    #expect(result.stderr.contains(line), "\(result.stderr)")
  }

  @Test func theVersionRecordIsReadStrictly() {
    func parse(_ text: String) -> [String]? {
      text.withCString {
        SharedModuleStamps.parse($0, value: SharedModuleStamps.isVersion)?.map { "\($0.0)=\($0.1)" }
      }
    }
    #expect(
      parse("AppContracts=1.2.0\nOther=2.0.0-beta.1\n") == ["AppContracts=1.2.0", "Other=2.0.0-beta.1"])
    #expect(parse("AppContracts=1.2") == nil)
    #expect(parse("AppContracts=0123456789abcdef") == nil)
    #expect(parse("AppContracts=1.2.0\u{1b}[31m") == nil)
    #expect(parse("AppContracts=1.2.0 ") == nil)
  }
}

/// The directive a shared module declares its release with.
@Suite struct ContractsVersionTests {
  typealias File = InterfaceStamp.SourceFile

  static func problem(_ files: [File]) -> String? {
    guard case .failure(let problem) = ContractsVersion.declared(in: files) else { return nil }
    return problem.description
  }

  @Test func theFirstLineDeclaresTheVersion() {
    let files = [
      File(
        path: "A/Greeter.swift", text: "// plugboard-contracts-version: 1.4.0\npublic protocol Greeter {}\n"),
      File(path: "A/Other.swift", text: "public struct Other {}\n// plugboard-contracts-version: 9.9.9\n"),
    ]
    #expect(ContractsVersion.declared(in: files) == .success("1.4.0"))
    #expect(ContractsVersion.declared(in: [files[1]]) == .success(nil))
  }

  @Test func aVersionThatIsNoneIsAProblem() {
    let files = [File(path: "A/Greeter.swift", text: "// plugboard-contracts-version: 1.4\n")]
    #expect(
      Self.problem(files)
        == "A/Greeter.swift: '1.4' is not a semantic version; write "
        + "// plugboard-contracts-version: MAJOR.MINOR.PATCH, such as "
        + "// plugboard-contracts-version: 1.0.0")
  }

  @Test func twoDeclarationsAreAProblem() {
    let files = [
      File(path: "A/B.swift", text: "// plugboard-contracts-version: 1.0.0\n"),
      File(path: "A/A.swift", text: "// plugboard-contracts-version: 1.0.0\n"),
    ]
    #expect(
      Self.problem(files)
        == "A/B.swift and A/A.swift both declare the module's version; keep one "
        + "// plugboard-contracts-version: line")
  }

  @Test(arguments: [
    ("1.0.0", true), ("10.20.30", true), ("1.0.0-beta.1", true), ("1.0", false), ("01.0.0", false),
    ("1.0.0-", false), ("1.0.0+build", false), ("v1.0.0", false),
  ])
  func semanticVersions(text: String, valid: Bool) {
    #expect(ContractsVersion.isSemantic(text) == valid)
  }

  @Test func theStampSourceExportsTheVersionAndRecordsTheDependencies() {
    let source = StampSource.module(
      "Plugin", stamp: "0123456789abcdef", version: "1.2.0",
      dependencies: [("Contracts", "fedcba9876543210")],
      dependencyVersions: [("Contracts", "1.1.0")])
    #expect(source.contains("@_cdecl(\"plugboard_contracts_version_v1_Plugin\")"))
    #expect(source.contains("(\"1.2.0\" as StaticString)"))
    #expect(source.contains("@_cdecl(\"plugboard_compiled_versions_v1\")"))
    #expect(source.contains("(\"Contracts=1.1.0\\n\" as StaticString)"))
  }
}
