import Foundation
import PlugboardKit
import Testing

@testable import PlugboardEngine

/// The command a refusal gives must be one that fixes it: a clean build
/// keeps the PlugboardKit version a package resolved, and a plain `swift
/// build` makes a debug plugin an installed host cannot load.
@Suite struct RebuildAdviceTests {
  /// A plugin package that depends on the SDK by version, resolved at
  /// `version`, with its library in `.build/release`.
  private static func package(resolving version: String) throws -> (
    folder: TemporaryDirectory, library: String
  ) {
    let folder = try TemporaryDirectory()
    try "// swift-tools-version:6.0\n".write(
      toFile: folder.path + "/Package.swift", atomically: true, encoding: .utf8)
    let resolved = """
      {
        "originHash" : "0",
        "pins" : [
          {
            "identity" : "plugboardkit",
            "kind" : "remoteSourceControl",
            "location" : "https://git.example.com/sdk/PlugboardKit",
            "state" : { "revision" : "0", "version" : "\(version)" }
          }
        ],
        "version" : 3
      }
      """
    try resolved.write(toFile: folder.path + "/Package.resolved", atomically: true, encoding: .utf8)
    return (folder, folder.path + "/.build/release/libGreeter.so")
  }

  @Test func aPluginWhosePackageResolvedANewerKitIsToldToChangeTheRequirement() throws {
    let (folder, library) = try Self.package(resolving: "1.1.0")
    let quoted = RebuildCommand.shellQuoted(folder.path)
    let refusal = KitCompatibility(plugin: "1.1.0+0123456789abcdef", host: "1.0.0+fedcba9876543210").refusal(
      plugin: "1.1.0+0123456789abcdef", host: "1.0.0+fedcba9876543210",
      rebuild: RebuildCommand.forLibrary(at: library, kitRelease: "1.0.0"))
    #expect(
      refusal
        == "was compiled against PlugboardKit 1.1.0, newer than this host's PlugboardKit 1.0.0: it may call "
        + "what this host's PlugboardKit lacks — upgrade the host to one with PlugboardKit 1.1.0 or a later 1.x, "
        + "or rebuild the plugin against PlugboardKit 1.0.0: its package resolved PlugboardKit 1.1.0, which a "
        + "clean build keeps: require PlugboardKit exact: \"1.0.0\" in \(folder.path)/Package.swift, then cd "
        + "\(quoted) && swift package update PlugboardKit && swift package clean && swift build -c release")
  }

  @Test func aPackageAlreadyAtTheHostsReleaseIsRebuiltFromClean() throws {
    let (folder, library) = try Self.package(resolving: "1.0.0")
    #expect(
      RebuildCommand.forLibrary(at: library, kitRelease: "1.0.0")
        == "cd \(RebuildCommand.shellQuoted(folder.path)) && swift package clean && swift build -c release")
  }

  /// A shipped library, outside any build folder, was built for release:
  /// the advice must not make a debug build of it.
  @Test func aShippedPluginIsRebuiltForRelease() {
    #expect(
      RebuildCommand.forLibrary(at: "/srv/plugins/libGreeter.so", kitRelease: "1.0.0")
        == "in the plugin's package, swift package clean && swift build -c release")
  }

  /// Format 1 keeps its pins under `object` and names them by `package`;
  /// another package's pin, or no file, is no pin of PlugboardKit.
  @Test func theResolvedFileIsReadInEveryFormat() throws {
    let other = #"{"pins": [{"identity": "other", "state": {"version": "9.0.0"}}]}"#
    #expect(ResolvedKitPin.version(in: try JSONParser.parse(other)) == nil)
    let formatOne = #"{"object": {"pins": [{"package": "PlugboardKit", "state": {"version": "1.2.0"}}]}}"#
    #expect(ResolvedKitPin.version(in: try JSONParser.parse(formatOne)) == "1.2.0")
    let folder = try TemporaryDirectory()
    #expect(ResolvedKitPin.version(inPackage: folder.path) == nil)
  }
}
