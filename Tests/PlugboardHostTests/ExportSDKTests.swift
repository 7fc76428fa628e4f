import Foundation
import PlugboardKit
import PlugboardTestSupport
import Testing

/// `Scripts/export-sdk`: PlugboardKit as a package repository of its own,
/// which a plugin outside this repository depends on by version, and which
/// the host then loads.
@Suite(.blocking) struct ExportSDKTests {
  private static let script = BuildProducts.packageRoot + "/Scripts/export-sdk"

  /// The export and SwiftPM's fetching by URL need git: skipped without it,
  /// unless `PLUGBOARD_REQUIRE_TOOLS` names `git`.
  static let hasGit = ExternalTool.shouldRun("git")
  static let noGit: Comment =
    "needs git, which is not on PATH (PLUGBOARD_REQUIRE_TOOLS=git makes it required)"

  private static func git(_ repository: String, _ arguments: [String]) throws -> String {
    let result = try Subprocess.run("/usr/bin/env", ["git", "-C", repository] + arguments)
    #expect(result.status == 0, "git \(arguments): \(result.stderr)")
    return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  @Test(.enabled(if: ExportSDKTests.hasGit, ExportSDKTests.noGit))
  func aPluginDependingOnTheSDKByVersionBuildsAndLoads() throws {
    try #require(Toolchain.find("git") != nil, "PLUGBOARD_REQUIRE_TOOLS names git, but git is not on PATH")
    let products = try ExportedSDKBuild.products.get()
    // Resolved by version from the exported repository, not by path.
    let resolved = try String(contentsOfFile: products.package + "/Package.resolved", encoding: .utf8)
    #expect(resolved.contains(#""kind" : "localSourceControl""#))
    #expect(resolved.contains(#""location" : "\#(products.repository)""#))
    #expect(resolved.contains(#""version" : "\#(ExportedSDKBuild.version)""#))
    // The contracts too, and their own dependency on Kit is that export.
    #expect(resolved.contains(#""location" : "\#(products.contracts)""#))
    #expect(resolved.contains(#""version" : "\#(ExportedSDKBuild.contractsVersion)""#))
    let exported = try String(contentsOfFile: products.contracts + "/Package.swift", encoding: .utf8)
    #expect(
      exported.contains(
        #".package(url: "file://\#(products.repository)", from: "\#(ExportedSDKBuild.version)")"#))
    #expect(!exported.contains(".package(path:"))

    let folder = try TemporaryDirectory()
    let manifest = try folder.writeManifest([("Greeter", products.library)])
    let run = try Subprocess.plugboard(["run", "--manifest", manifest])
    #expect(run.stderr == "")
    #expect(run.status == 0)
    #expect(run.stdout == ExportedSDKBuild.greeting + "\n")

    // Loaded, so not refused for its PlugboardKit version: the export's
    // sources give the plugin the very version the host's library has.
    let list = try Subprocess.plugboard(["list", "--json", "--manifest", manifest])
    #expect(list.status == 0)
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])
    let host = try #require(report["host"] as? [String: Any])
    #expect(host["kit"] as? String == PlugboardBuild.loadedKitVersion)
    let plugins = try #require(report["plugins"] as? [[String: Any]])
    #expect(plugins.map { $0["status"] as? String } == ["loaded"])
  }

  @Test(.enabled(if: ExportSDKTests.hasGit, ExportSDKTests.noGit))
  func exportingTheSameFilesAgainChangesNothing() throws {
    let products = try ExportedSDKBuild.products.get()
    let head = try Self.git(products.repository, ["rev-parse", "HEAD"])
    let again = try Subprocess.run(Self.script, [products.repository, ExportedSDKBuild.version])
    #expect(again.status == 0)
    #expect(
      again.stderrLines == [
        "\(products.repository): \(ExportedSDKBuild.version) already holds these files; nothing to do"
      ])
    #expect(try Self.git(products.repository, ["rev-parse", "HEAD"]) == head)
    #expect(try Self.git(products.repository, ["status", "--porcelain"]) == "")
  }

  /// Any package folder exports the same way (a team's contracts), and a
  /// tag never changes its files: changed files need a new version.
  @Test(.enabled(if: ExportSDKTests.hasGit, ExportSDKTests.noGit))
  func aTagNeverChangesItsFiles() throws {
    let folder = try TemporaryDirectory()
    let source = folder.path + "/Contracts"
    try FileManager.default.createDirectory(
      atPath: source + "/Sources/Contracts", withIntermediateDirectories: true)
    try "// swift-tools-version:6.0\n".write(
      toFile: source + "/Package.swift", atomically: true, encoding: .utf8)
    try "public protocol Clock {}\n".write(
      toFile: source + "/Sources/Contracts/Clock.swift", atomically: true, encoding: .utf8)
    let repository = folder.path + "/exported"
    let first = try Subprocess.run(Self.script, ["--package", source, repository, "1.0.0"])
    #expect(first.status == 0, "\(first.stderr)")
    #expect(try Self.git(repository, ["ls-files"]) == "Package.swift\nSources/Contracts/Clock.swift")

    try "public protocol Clock { var now: Double { get } }\n".write(
      toFile: source + "/Sources/Contracts/Clock.swift", atomically: true, encoding: .utf8)
    let refused = try Subprocess.run(Self.script, ["--package", source, repository, "1.0.0"])
    #expect(refused.status == 1)
    #expect(
      refused.stderrLines == [
        "export-sdk: \(repository): tag 1.0.0 already holds other files; export them under a new version"
      ])
    #expect(try Self.git(repository, ["status", "--porcelain"]) == "")

    let second = try Subprocess.run(Self.script, ["--package", source, repository, "1.1.0"])
    #expect(second.status == 0, "\(second.stderr)")
    #expect(try Self.git(repository, ["tag", "--list"]) == "1.0.0\n1.1.0")
    #expect(
      try Self.git(repository, ["show", "1.0.0:Sources/Contracts/Clock.swift"]) == "public protocol Clock {}")
  }

  /// An export names the commit it came from; a package folder with
  /// changes not committed is not that commit, and the export says so, in
  /// a warning and in its commit message.
  @Test(.enabled(if: ExportSDKTests.hasGit, ExportSDKTests.noGit))
  func anUncommittedPackageIsExportedWithAWarning() throws {
    let folder = try TemporaryDirectory()
    let root = folder.path + "/project"
    try FileManager.default.createDirectory(atPath: root + "/Scripts", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: root + "/Pkg/Sources/Pkg", withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: Self.script, toPath: root + "/Scripts/export-sdk")
    try "// swift-tools-version:6.0\n".write(
      toFile: root + "/Pkg/Package.swift", atomically: true, encoding: .utf8)
    let file = root + "/Pkg/Sources/Pkg/Clock.swift"
    try "public protocol Clock {}\n".write(toFile: file, atomically: true, encoding: .utf8)
    let identity = ["-c", "user.name=t", "-c", "user.email=t@t.invalid", "-c", "commit.gpgSign=false"]
    _ = try Self.git(root, ["init", "-q"])
    _ = try Self.git(root, ["add", "-A"])
    _ = try Self.git(root, identity + ["commit", "-qm", "first"])
    let first = try Self.git(root, ["rev-parse", "--short", "HEAD"])
    try "public protocol Clock { var now: Double { get } }\n".write(
      toFile: file, atomically: true, encoding: .utf8)

    let repository = folder.path + "/exported"
    let dirty = try Subprocess.run(root + "/Scripts/export-sdk", ["--package", "Pkg", repository, "1.0.0"])
    #expect(dirty.status == 0, "\(dirty.stderr)")
    // As the script names folders: `pwd -P`, links resolved.
    let source = URL(fileURLWithPath: root + "/Pkg").resolvingSymlinksInPath().path
    let project = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
    #expect(
      dirty.stderrLines.first
        == "export-sdk: warning: \(source) has changes not committed in \(project); "
        + "the export holds them, and its commit says \"exported from \(first) with uncommitted changes\" — "
        + "commit them first for an export anyone can trace")
    #expect(
      try Self.git(repository, ["log", "-1", "--format=%s"])
        == "Pkg 1.0.0, exported from \(first) with uncommitted changes by Scripts/export-sdk")

    _ = try Self.git(root, ["add", "-A"])
    _ = try Self.git(root, identity + ["commit", "-qm", "second"])
    try "public protocol Clock { var now: Int { get } }\n".write(
      toFile: file, atomically: true, encoding: .utf8)
    _ = try Self.git(root, ["add", "-A"])
    _ = try Self.git(root, identity + ["commit", "-qm", "third"])
    let third = try Self.git(root, ["rev-parse", "--short", "HEAD"])
    let clean = try Subprocess.run(root + "/Scripts/export-sdk", ["--package", "Pkg", repository, "1.1.0"])
    #expect(clean.status == 0, "\(clean.stderr)")
    #expect(!clean.stderr.contains("warning"))
    #expect(
      try Self.git(repository, ["log", "-1", "--format=%s"])
        == "Pkg 1.1.0, exported from \(third) by Scripts/export-sdk")
  }

  @Test func refusesAVersionSwiftPMCannotResolve() throws {
    let folder = try TemporaryDirectory()
    let result = try Subprocess.run(Self.script, [folder.path + "/sdk", "1.0"])
    #expect(result.status == 1)
    #expect(
      result.stderrLines == [
        "export-sdk: '1.0' is not a semantic version such as 0.1.0 (SwiftPM resolves tags of that form only)"
      ])
    #expect(!FileManager.default.fileExists(atPath: folder.path + "/sdk"))
  }

  /// A package used by version cannot depend on another by path: the
  /// contracts' `.package(path: "../../Kit")` must be named with the
  /// export that replaces it, and a name that matches none is refused too.
  /// Either way before anything is written.
  @Test func refusesAPathDependencyItIsNotToldHowToReplace() throws {
    let folder = try TemporaryDirectory()
    let contracts = BuildProducts.packageRoot + "/Plugins/Contracts"
    let destination = folder.path + "/AppContracts"
    let unnamed = try Subprocess.run(Self.script, ["--package", "Plugins/Contracts", destination, "1.0.0"])
    #expect(unnamed.status == 1)
    #expect(
      unnamed.stderrLines == [
        "export-sdk: \(contracts)/Package.swift depends on .package(path: \"../../Kit\") by path, which a "
          + "package used by version cannot: export that package first, then name its export: --dependency "
          + "PATH=URL@VERSION"
      ])
    let misnamed = try Subprocess.run(
      Self.script,
      [
        "--package", "Plugins/Contracts", "--dependency", "../Kit=file:///srv/sdk/Kit@0.1.0", destination,
        "1.0.0",
      ])
    #expect(misnamed.status == 1)
    #expect(
      misnamed.stderrLines == [
        "export-sdk: \(contracts)/Package.swift has no .package(path: \"../Kit\") to replace; its path "
          + "dependencies: .package(path: \"../../Kit\")"
      ])
    #expect(!FileManager.default.fileExists(atPath: destination))
  }

  /// A package that declares its release (PlugboardKit's `kitRelease`, a
  /// contracts module's `// plugboard-contracts-version:`) is tagged with
  /// that release only: a plugin depending on tag 0.1.0 of a Kit that says
  /// 1.0.0 would record 1.0.0, and the tag would promise nothing.
  @Test func refusesATagThatIsNotThePackagesDeclaredRelease() throws {
    let folder = try TemporaryDirectory()
    let kit = BuildProducts.packageRoot + "/Kit"
    let release = PlugboardBuild.kitRelease
    let wrong = try Subprocess.run(Self.script, [folder.path + "/sdk", "0.1.0"])
    #expect(wrong.status == 1)
    #expect(
      wrong.stderrLines == [
        "export-sdk: \(kit) declares release \(release) (PlugboardBuild.kitRelease); export it under that "
          + "version (or a pre-release of it, such as \(release)-beta.1), not 0.1.0"
      ])
    #expect(!FileManager.default.fileExists(atPath: folder.path + "/sdk"))

    let contracts = BuildProducts.packageRoot + "/Plugins/Contracts"
    let wrongContracts = try Subprocess.run(
      Self.script,
      [
        "--package", "Plugins/Contracts", "--dependency", "../../Kit=file:///srv/sdk/Kit@\(release)",
        folder.path + "/contracts", "2.0.0",
      ])
    #expect(wrongContracts.status == 1)
    #expect(
      wrongContracts.stderrLines == [
        "export-sdk: \(contracts) declares release 1.0.0 (// plugboard-contracts-version: in "
          + "Sources/AppContracts/ContractsRelease.swift); export it under that version (or a pre-release of "
          + "it, such as 1.0.0-beta.1), not 2.0.0"
      ])
  }

  /// A dependency that declares its release keeps the promise of its
  /// semantic version (PlugboardKit and versioned contracts are built with
  /// library evolution), so an export depends on it from the named release
  /// up to the next major one: a plugin may then take a later minor
  /// release of Kit than the contracts were exported against. Nothing is
  /// built, so this stays fast; the build is `aPluginDependingOnTheSDK…`.
  @Test(.enabled(if: ExportSDKTests.hasGit, ExportSDKTests.noGit))
  func dependsOnAVersionedPackageFromItsReleaseWithinTheMajorVersion() throws {
    let folder = try TemporaryDirectory()
    let destination = folder.path + "/AppContracts"
    let release = PlugboardBuild.kitRelease
    let export = try Subprocess.run(
      Self.script,
      [
        "--package", "Plugins/Contracts", "--dependency", "../../Kit=file:///srv/sdk/PlugboardKit@\(release)",
        destination, "1.0.0",
      ])
    #expect(export.status == 0, "\(export.stderr)")
    let exported = try String(contentsOfFile: destination + "/Package.swift", encoding: .utf8)
    #expect(exported.contains(#".package(url: "file:///srv/sdk/PlugboardKit", from: "\#(release)")"#))
    #expect(!exported.contains("exact:"))
  }
}
