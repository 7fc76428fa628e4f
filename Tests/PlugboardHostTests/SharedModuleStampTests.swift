import Foundation
import PlugboardKit
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// A shared module whose declarations changed after a plugin was
/// compiled against it is refused before any of the plugin's code runs,
/// by `run` and by `check`, naming the module, both stamps, the file loaded
/// and the rebuild; a change of comments and layout alone is not.
@Suite(.blocking) struct SharedModuleStampTests {
  typealias Contracts = StampFixtures.Contracts

  static func expected(plugin: String, contracts: String) -> String {
    "check versions: plugin 'Stale' (\(plugin)) was compiled against StampedContracts "
      + "\(Contracts.original.stamp), but the StampedContracts loaded from \(contracts) is "
      + "\(Contracts.requirementAdded.stamp): their declarations differ, and the plugin's code could crash "
      + "the host — rebuild the plugin against the loaded StampedContracts: in the plugin's package, "
      + "swift package clean && swift build"
  }

  @Test func theStampsDifferOnlyWhenTheDeclarationsDo() {
    #expect(Contracts.original.stamp != Contracts.requirementAdded.stamp)
    #expect(Contracts.original.stamp == Contracts.commentsOnly.stamp)
  }

  @Test(arguments: ["run", "check"])
  func aPluginCompiledAgainstOtherDeclarationsIsRefused(command: String) throws {
    let deployment = try StampFixtures.deployment(.requirementAdded)
    let contracts = FilePath.canonical(deployment.root.path + "/libStampedContracts.so") ?? ""
    let result = try Subprocess.plugboard([command, "--manifest", deployment.manifest])
    #expect(result.exited, "plugboard was killed by a signal: \(result.stderr)")
    #expect(result.status == (command == "run" ? 78 : 1))
    let line = Self.expected(plugin: deployment.plugin, contracts: contracts)
    #expect((result.stdout + result.stderr).contains(line), "\(result.stdout)\(result.stderr)")
    #expect(!result.stdout.contains("Hello from a plugin"))
  }

  /// A pinned plugin is opened from a sealed copy; its stamps are
  /// compared all the same.
  @Test func aPinnedPluginCompiledAgainstOtherDeclarationsIsRefused() throws {
    let deployment = try StampFixtures.deployment(.requirementAdded)
    let contracts = FilePath.canonical(deployment.root.path + "/libStampedContracts.so") ?? ""
    let pin = try Subprocess.plugboard(["pin", "--manifest", deployment.manifest])
    #expect(pin.status == 0)
    let result = try Subprocess.plugboard(["check", "--manifest", deployment.manifest])
    #expect(result.exited, "plugboard was killed by a signal: \(result.stderr)")
    #expect(result.status == 1)
    let line = Self.expected(plugin: deployment.plugin, contracts: contracts)
    #expect(result.stdout.contains(line), "\(result.stdout)\(result.stderr)")
  }

  @Test func aCommentOnlyChangeLeavesThePluginLoadable() throws {
    let deployment = try StampFixtures.deployment(.commentsOnly)
    let result = try Subprocess.plugboard(["run", "--manifest", deployment.manifest])
    #expect(result.exited && result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("Hello from a plugin built against the original Greeter"))
  }

  @Test func theRecordIsReadStrictly() throws {
    func parse(_ text: String) -> [String]? {
      text.withCString { SharedModuleStamps.parse($0)?.map { "\($0.0)=\($0.1)" } }
    }
    #expect(
      parse("AppContracts=0123456789abcdef\nOther_2=fedcba9876543210\n")
        == ["AppContracts=0123456789abcdef", "Other_2=fedcba9876543210"])
    #expect(parse("") == [])
    #expect(parse("AppContracts=0123") == nil)
    #expect(parse("App Contracts=0123456789abcdef") == nil)
    #expect(parse("AppContracts=0123456789ABCDEF") == nil)
    #expect(parse(String(repeating: "A=0123456789abcdef\n", count: 300)) == nil)
  }

  @Test func theRebuildCommandNamesThePackage() {
    let root = BuildProducts.packageRoot
    #expect(
      RebuildCommand.forLibrary(at: root + "/.build/x86_64-unknown-linux-gnu/debug/libAuth.so")
        == "cd \(RebuildCommand.shellQuoted(root)) && swift package clean && swift build")
    #expect(
      RebuildCommand.forLibrary(at: root + "/.build/release/libAuth.so")
        == "cd \(RebuildCommand.shellQuoted(root)) && swift package clean && swift build -c release")
    #expect(
      RebuildCommand.forLibrary(at: "/nowhere/libAuth.so")
        == "in the plugin's package, swift package clean && swift build -c release")
    #expect(RebuildCommand.shellQuoted("/srv/it's here") == #"'/srv/it'\''s here'"#)
  }
}
