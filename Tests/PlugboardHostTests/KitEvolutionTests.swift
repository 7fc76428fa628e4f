import Foundation
import PlugboardKit
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// Plugins compiled against this checkout's PlugboardKit, copied out of the
/// build folder with their contracts library as an operator receives them,
/// run unchanged under a host rebuilt from a PlugboardKit that is a later
/// release and changed compatibly (``EvolvedKitBuild``): stored properties
/// inserted first in `Container`, a scope and a record's extras, a public
/// type and methods added, a requirement with a default added to
/// `Assembly`, a case inserted first in two enums plugins switch over, an
/// inlinable body changed, a diagnostic reworded, and the minor version
/// raised. And what only the fast slot's freezing leaves free (Kit/ABI.md):
/// a stored property inserted first in the registry, the registration
/// records and the thread's resolution state, and other load factors for
/// the lookup tables. The release plugins, with the earlier Kit's resolve
/// inlined, hold that: while `Registry` was frozen, a stored property
/// inserted first in it made their inlined lookup crash (SIGSEGV while
/// making the `Application`).
@Suite(.blocking) struct KitEvolutionTests {
  /// The sample's plugins, without the third-party one (built elsewhere).
  static let plugins = ["Networking", "Keychain", "Auth", "Login", "IssueList", "Shell"]

  /// The sample's output in profile `live`, but for the third-party
  /// plugin's line.
  static let output = ProfileDeploymentTests.liveOutput.replacingOccurrences(
    of: "Analytics recorded: login.succeeded, issues.viewed\n", with: "")

  /// The copied deployment of this suite's (debug) build: the plugins and
  /// `libAppContracts.so` in a folder of their own under the evolved
  /// build, and a manifest naming them (in the sample's profile `live`).
  /// Made once; each test gets the host's `plugboard` and the manifest.
  private func deployment() throws -> (plugboard: String, manifest: String) {
    try Self.debugCopy.get()
  }

  /// What the test plugin KitClient prints: every kind of registration and
  /// resolution it tries, and the enum cases it switched to.
  static let kitClientOutput = """
    KitClient: greeting hello
    KitClient: undeclared notDeclared
    KitClient: transient distinct true
    KitClient: container shared true
    KitClient: graph shared within a resolution
    KitClient: arguments Mimi 3
    KitClient: lazy is the shared one true
    KitClient: missing notRegistered Missing
    KitClient: failing factoryFailed failing on purpose
    KitClient: mismatched argumentsMismatch ["Int", "String"]

    """

  private static let debugCopy = Result { try copy(from: BuildProducts.directory, into: "debug") }
    .mapError { $0 as? FixtureFailure ?? FixtureFailure(description: "cannot copy the deployment: \($0)") }

  /// The same, with the later compatible release of the sample's contracts
  /// (``EvolvedKitBuild/contractsChanges``) in place of the one the plugins
  /// were compiled against.
  private static let laterContractsCopy = Result {
    try copy(from: BuildProducts.directory, into: "debug-later-contracts", laterContracts: true)
  }
  .mapError { $0 as? FixtureFailure ?? FixtureFailure(description: "cannot copy the deployment: \($0)") }

  /// The same from a release build, whose plugins have Kit's resolve
  /// inlined into them (a debug build calls Kit's copy of it instead): only
  /// these run code compiled against the earlier Kit's frozen layouts.
  static let releaseCopy = Result {
    // Fails, naming the variable, when the folder holds no such build.
    _ = try ReleaseProducts.path("libShell.so")
    _ = try ReleaseProducts.path("libKitClient.so")
    return try copy(from: ReleaseProducts.directory ?? "", into: "release")
  }
  .mapError { $0 as? FixtureFailure ?? FixtureFailure(description: "cannot copy the deployment: \($0)") }

  private static func copy(from products: String, into name: String, laterContracts: Bool = false) throws -> (
    plugboard: String, manifest: String
  ) {
    let root = try EvolvedKitBuild.host.get()
    let folder = root + "/deployment-" + name
    let manager = FileManager.default
    try? manager.removeItem(atPath: folder)
    try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for library in (plugins + ["KitClient"]).map({ "lib\($0).so" }) + ["libAppContracts.so"] {
      let source =
        laterContracts && library == "libAppContracts.so"
        ? root + "/contracts/" + library : products + "/" + library
      try manager.copyItem(atPath: source, toPath: folder + "/" + library)
    }
    let entries = plugins.map { name in
      let config =
        name == "Networking"
        ? #", "config": { "baseURL": "https://issues.example.com/api", "timeout": 5 }"# : ""
      return #"{ "name": "\#(name)", "path": "lib\#(name).so"\#(config) }"#
    }
    let manifest = folder + "/plugins.json"
    try
      (#"{ "formatVersion": 1, \#(BuildProducts.rootsMember) "activeProfile": "live", "#
      + #""profiles": { "live": { "description": "the real implementations" } }, "plugins": [ "#
      + entries.joined(separator: ", ") + " ] }")
      .write(toFile: manifest, atomically: true, encoding: .utf8)
    try
      (#"{ "formatVersion": 1, \#(BuildProducts.rootsMember) "plugins": [ "#
      + #"{ "name": "KitClient", "path": "libKitClient.so" } ] }"#)
      .write(toFile: folder + "/kit-client.json", atomically: true, encoding: .utf8)
    return (root + "/bin/plugboard", manifest)
  }

  /// The manifest beside `manifest` that names KitClient alone.
  private static func kitClientManifest(beside manifest: String) -> String {
    (manifest as NSString).deletingLastPathComponent + "/kit-client.json"
  }

  @Test("the upgraded host reports the later PlugboardKit it runs")
  func theHostRunsTheLaterKit() throws {
    let plugboard = try deployment().plugboard
    let result = try Subprocess.run(plugboard, ["--version"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("(PlugboardKit \(EvolvedKitBuild.release)+evolved, plugin ABI 1"))
    // Compiled here, against the evolved Kit: not the checkout's binary.
    let rebuilt = FileManager.default.contents(
      atPath: (plugboard as NSString).deletingLastPathComponent + "/plugboard-host")
    let checkouts = FileManager.default.contents(atPath: BuildProducts.directory + "/plugboard-host")
    #expect(rebuilt != nil && rebuilt != checkouts)
  }

  @Test("a host whose PlugboardKit removed a method released plugins call says its Kit broke the promise")
  func removedMethodIsTheHostsBreak() throws {
    // The sample's plugins make their descriptor with `makeDescriptor`.
    let manifest = try deployment().manifest
    let broken = try EvolvedKitBuild.brokenHost.get()
    let result = try Subprocess.run(broken + "/bin/plugboard", ["check", "--manifest", manifest])
    #expect(result.status != 0)
    let symbol =
      "$s12PlugboardKit12PluginExportO14makeDescriptor4name7version10kitVersion05swiftJ08requires"
      + "10assembliesSVSS_S3SSayAA0C11RequirementVGSayAA8Assembly_pGyctFZ"
    let expected =
      "it needs static PlugboardKit.PluginExport.makeDescriptor(name: Swift.String, version: Swift.String, "
      + "kitVersion: Swift.String, swiftVersion: Swift.String, requires: Swift.Array<PlugboardKit.PluginRequirement>, "
      + "assemblies: () -> Swift.Array<PlugboardKit.Assembly>) -> Swift.UnsafeRawPointer (\(symbol)), which module "
      + "PlugboardKit should define: PlugboardKit 1.0.0 declares it, and every later 1.x release promises to "
      + "keep it, but the PlugboardKit loaded in this process, \(broken)/bin/libPlugboardKit.so (loaded by "
      + "plugboard itself, PlugboardKit \(EvolvedKitBuild.release)), does not define it: this plugboard's "
      + "PlugboardKit broke the compatibility promise of its version (Kit/ABI.md), not the plugin — install a "
      + "plugboard whose PlugboardKit keeps the 1.0.0 ABI (Scripts/check-kit-abi compares a PlugboardKit "
      + "build with it), or rebuild the plugin against the PlugboardKit plugboard uses"
    #expect(result.stdout.contains(expected), "\(result.stdout)\(result.stderr)")
    #expect(!result.stdout.contains("built against a newer PlugboardKit"), "\(result.stdout)")
  }

  @Test("a missing PlugboardKit symbol the released baseline declares is the host's break; another is not")
  func baselineDeclarations() {
    let method =
      "$s12PlugboardKit12PluginExportO14makeDescriptor4name7version10kitVersion05swiftJ08requires"
      + "10assembliesSVSS_S3SSayAA0C11RequirementVGSayAA8Assembly_pGyctFZ"
    #expect(KitPromise.baselineRelease(declaring: method, hostRelease: "1.4.0") == KitBaselineSymbols.release)
    // What a plugin refers to a declaration by: a method descriptor, a
    // type's metadata accessor, a property's descriptor.
    #expect(
      KitPromise.baselineRelease(
        declaring: "$s12PlugboardKit11ApplicationP3run9argumentss5Int32VSaySSG_tYaKFTq", hostRelease: "1.0.0")
        != nil)
    #expect(
      KitPromise.baselineRelease(declaring: "$s12PlugboardKit17PluginRequirementVMa", hostRelease: "1.0.0")
        != nil)
    // Added after the baseline: a plugin built against that release is newer.
    #expect(
      KitPromise.baselineRelease(
        declaring: "$s12PlugboardKit9ContainerC18addedInNextReleaseSiyF", hostRelease: "1.1.0") == nil)
    // Another major version promises nothing of the baseline's.
    #expect(KitPromise.baselineRelease(declaring: method, hostRelease: KitVersions.nextMajor) == nil)
  }

  @Test("the host's list of the baseline's declarations is the one the script writes from the baseline")
  func baselineListIsCurrent() throws {
    let script = BuildProducts.packageRoot + "/Scripts/kit-baseline-symbols"
    let result = try Subprocess.run(script, [])
    #expect(result.status == 0, "\(result.stderr)")
    let committed = try String(
      contentsOfFile: BuildProducts.packageRoot + "/Host/PlugboardEngine/Loader/KitBaselineSymbols.swift",
      encoding: .utf8)
    #expect(
      result.stdout == committed,
      "run Scripts/kit-baseline-symbols > Host/PlugboardEngine/Loader/KitBaselineSymbols.swift")
  }

  @Test("a plugin using every kind of registration, compiled against the earlier Kit, sees the same")
  func kitClientRuns() throws {
    let (plugboard, manifest) = try deployment()
    for host in [BuildProducts.directory + "/plugboard", plugboard] {
      let result = try Subprocess.run(host, ["run", "--manifest", Self.kitClientManifest(beside: manifest)])
      #expect(result.status == 0, "\(host): \(result.stderr)")
      #expect(result.stdout == Self.kitClientOutput, "\(host)")
    }
  }

  @Test(
    "a release plugin using every kind of registration, compiled against the earlier Kit, sees the same",
    .enabled(if: ReleaseProducts.directory != nil, ReleaseProducts.missing))
  func releaseKitClientRuns() throws {
    let (plugboard, manifest) = try Self.releaseCopy.get()
    let result = try Subprocess.run(
      plugboard, ["run", "--manifest", Self.kitClientManifest(beside: manifest)])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == Self.kitClientOutput)
  }

  @Test("plugins compiled against the earlier PlugboardKit run unchanged under the later one")
  func olderPluginsRun() throws {
    let (plugboard, manifest) = try deployment()
    let result = try Subprocess.run(plugboard, ["run", "--manifest", manifest])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == Self.output)
    #expect(result.stderr == "")
  }

  @Test(
    "release plugins, with the earlier Kit's resolve inlined, run unchanged under the later Kit",
    .enabled(if: ReleaseProducts.directory != nil, ReleaseProducts.missing))
  func olderReleasePluginsRun() throws {
    let (plugboard, manifest) = try Self.releaseCopy.get()
    let result = try Subprocess.run(plugboard, ["run", "--manifest", manifest])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == Self.output)
    #expect(result.stderr == "")
  }

  @Test("plugins compiled against the sample's contracts 1.0.0 run unchanged with its 1.1.0")
  func olderPluginsRunWithLaterContracts() throws {
    let (plugboard, manifest) = try Self.laterContractsCopy.get()
    for host in [BuildProducts.directory + "/plugboard", plugboard] {
      let result = try Subprocess.run(host, ["run", "--manifest", manifest])
      #expect(result.status == 0, "\(host): \(result.stderr)")
      #expect(result.stdout == Self.output, "\(host)")
    }
  }

  @Test("list --json and check name each plugin's PlugboardKit as an older, compatible one")
  func listAndCheckShowTheOlderKit() throws {
    let (plugboard, manifest) = try deployment()
    let list = try Subprocess.run(plugboard, ["list", "--json", "--manifest", manifest])
    #expect(list.status == 0, "\(list.stderr)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])
    let plugins = try #require(json["plugins"] as? [[String: Any]])
    #expect(plugins.count == Self.plugins.count)
    for plugin in plugins {
      let kit = try #require(plugin["kit"] as? [String: Any], "\(plugin["name"] ?? "?") has no kit")
      #expect(kit["version"] as? String == PlugboardBuild.kitVersion)
      #expect(kit["compatibility"] as? String == "older")
    }
    let check = try Subprocess.run(plugboard, ["check", "--manifest", manifest])
    #expect(check.status == 0, "\(check.stderr)")
    let names = Self.plugins.map { "\($0) (\(PlugboardBuild.kitRelease))" }.joined(separator: ", ")
    #expect(
      check.stdout.contains(
        "compiled against an older PlugboardKit, which this host's \(EvolvedKitBuild.release) accepts: \(names)\n"
      ))
  }

  @Test("explain names the PlugboardKit the chosen registration's plugin was compiled against")
  func explainShowsTheKit() throws {
    let (plugboard, manifest) = try deployment()
    let result = try Subprocess.run(plugboard, ["explain", "AuthService", "--manifest", manifest])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.contains(
        "  plugin 'Auth' was compiled against PlugboardKit \(PlugboardBuild.kitRelease) (older than the "
          + "host's \(EvolvedKitBuild.release), compatible)\n"))
  }

  @Test("this checkout's host shows its own PlugboardKit as the host's")
  func sameKitIsTheHosts() throws {
    let result = try Subprocess.plugboard([
      "list", "--json", "--manifest", BuildProducts.packageRoot + "/plugins.json",
    ])
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let plugins = try #require(json["plugins"] as? [[String: Any]])
    let shell = try #require(plugins.first { $0["name"] as? String == "Shell" })
    let kit = try #require(shell["kit"] as? [String: Any])
    #expect(kit["compatibility"] as? String == "same")
    #expect(kit["version"] as? String == PlugboardBuild.kitVersion)
  }
}

/// How a plugin's PlugboardKit version is judged against the host's.
@Suite struct KitCompatibilityTests {
  @Test(arguments: [
    ("1.0.0+abc", "1.0.0+def", KitCompatibility.same),
    ("1.2.3", "1.2.0", .same),
    ("1.0.0", "1.4.2", .older),
    ("1.5.0", "1.4.2", .newerMinor),
    ("2.0.0", "1.4.2", .otherMajor),
    ("0.9.0", "1.0.0", .otherMajor),
    ("1.0", "1.0.0", .unreadable),
    ("1.0.0", "v1", .unreadable),
  ])
  func compatibility(plugin: String, host: String, expected: KitCompatibility) {
    #expect(KitCompatibility(plugin: plugin, host: host) == expected)
  }

  @Test func onlySameAndOlderAreAccepted() {
    #expect(KitCompatibility.allAccepted == [.same, .older])
  }
}

extension KitCompatibility {
  fileprivate static var allAccepted: [KitCompatibility] {
    [.same, .older, .newerMinor, .otherMajor, .unreadable].filter(\.isAccepted)
  }
}
