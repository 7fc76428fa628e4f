import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// `"optional": true`: a failing optional plugin is a warning, at any
/// stage, and the deployment runs without it; a required one still blocks.
@Suite(.blocking) struct OptionalPluginTests {
  /// Healthy (the application) and `plugin` at `path`, optional or not.
  private static func manifest(_ plugin: String, path: String, optional: Bool = true) throws -> (
    TemporaryDirectory, String
  ) {
    let folder = try TemporaryDirectory()
    let file = try folder.write(
      "plugins.json",
      """
      { "formatVersion": 1, \(BuildProducts.rootsMember)
        "plugins": [
          { "name": "Healthy", "path": "\(BuildProducts.library("Healthy"))" },
          { "name": "\(plugin)", "path": "\(path)", "optional": \(optional) }
        ] }
      """)
    return (folder, file)
  }

  @Test func aMissingOptionalPluginIsSaidOnceAndTheApplicationRuns() throws {
    let (folder, manifest) = try Self.manifest("Ghost", path: "/nonexistent/libGhost.so")
    let result = try Subprocess.plugboard(["run", "--manifest", manifest])
    #expect(result.status == 0)
    #expect(result.stdout == "Healthy is running\n")
    #expect(
      result.stderrLines == [
        "plugboard: run: warning: optional plugin 'Ghost' is missing, the application runs without it: "
          + "locate: plugin 'Ghost' (/nonexistent/libGhost.so) does not exist"
      ])
    _ = folder
  }

  @Test func anOptionalPluginWhoseAssemblyThrowsIsAWarning() throws {
    let (folder, manifest) = try Self.manifest("Throwing", path: BuildProducts.library("ThrowingPlugin"))
    let file = BuildProducts.library("ThrowingPlugin")
    let result = try Subprocess.plugboard(["run", "--manifest", manifest])
    #expect(result.status == 0)
    // Its assembly registered an application before it threw: none of a
    // failed optional plugin serves, so Healthy's application runs.
    #expect(result.stdout == "Healthy is running\n")
    #expect(
      result.stderrLines == [
        "plugboard: run: warning: optional plugin 'Throwing' failed, the application runs without it: "
          + "assemble: plugin 'Throwing' (\(file)) failed to assemble: ThrowingPlugin.ThrowingAssembly.assemble(container:) "
          + "threw: missing configuration value 'api-key'"
      ])
    _ = folder
  }

  /// The registrations it made before it threw no longer serve, but
  /// `check` still knows them, to say what depended on them.
  @Test func checkStillKnowsWhatAFailedOptionalPluginRegistered() throws {
    let (folder, manifest) = try Self.manifest("Throwing", path: BuildProducts.library("ThrowingPlugin"))
    let result = try Subprocess.plugboard(["check", "--manifest", manifest])
    #expect(result.status == 0)
    #expect(
      result.stdout.contains("warning: optional plugin 'Throwing' failed; the deployment runs without it"))
    #expect(result.stdout.contains("  Nothing loaded depends on what it registers.\n"))
    #expect(result.stdout.hasSuffix("check: 0 errors, 1 warning; the deployment is healthy\n"))
    _ = folder
  }

  /// A trap in the supervised child: the plugin is set aside, the new
  /// child runs without it, and the warning is printed once, by that child.
  @Test func anOptionalPluginThatTrapsIsSetAsideAndSaidOnce() throws {
    let (folder, manifest) = try Self.manifest(
      "TrappingAssembly", path: BuildProducts.library("TrappingAssembly"))
    let result = try Subprocess.plugboard(["run", "--manifest", manifest])
    #expect(result.status == 0)
    #expect(result.stdout == "Healthy is running\n")
    let warnings = result.stderrLines.filter { $0.contains("optional plugin") }
    #expect(warnings.count == 1)
    #expect(
      warnings.first?.hasPrefix(
        "plugboard: run: warning: optional plugin 'TrappingAssembly' failed, the application runs without "
          + "it: assemble: plugin 'TrappingAssembly'") == true)
    _ = folder
  }

  /// `list` marks a failed optional plugin "(see stderr)": stderr says
  /// why, as a warning, and the status stays 0 (the deployment runs).
  @Test func listSaysWhyAnOptionalPluginFailed() throws {
    let (folder, manifest) = try Self.manifest("Loose", path: "libLoose.so")
    let file = folder.path + "/libLoose.so"
    try FileManager.default.copyItem(atPath: BuildProducts.library("Healthy"), toPath: file)
    #expect(chmod(file, 0o666) == 0)
    let result = try Subprocess.plugboard(["list", "--manifest", manifest])
    #expect(result.status == 0)
    #expect(result.stdout.contains("Loose  \(file)  FAILED at vet (see stderr)  (optional)\n"))
    #expect(
      result.stderrLines == [
        "plugboard: list: warning: optional plugin 'Loose' failed, the application runs without it: vet: "
          + "plugin 'Loose' (\(file)) is writable by group and others (mode 0666, owner uid \(getuid())); anyone "
          + "who can write it can run code in plugboard — remove the write permission: chmod go-w \(file)"
      ])
    _ = folder
  }

  @Test func aRequiredPluginsFailureStillBlocks() throws {
    let (folder, manifest) = try Self.manifest("Ghost", path: "/nonexistent/libGhost.so", optional: false)
    let result = try Subprocess.plugboard(["run", "--manifest", manifest])
    #expect(result.status == 78)
    #expect(result.stdout == "")
    #expect(
      result.stderrLines == [
        "plugboard: locate: plugin 'Ghost' (/nonexistent/libGhost.so) does not exist",
        "plugboard: the deployment has 1 problem; the application was not run",
      ])
    _ = folder
  }

  @Test func checkReportsItAsAWarningWithWhatDependsOnIt() throws {
    let (folder, manifest) = try Self.manifest("Ghost", path: "/nonexistent/libGhost.so")
    let result = try Subprocess.plugboard(["check", "--manifest", manifest])
    #expect(result.status == 0)
    #expect(
      result.stdout == """
        Checking \(manifest): 2 plugins (1 loaded), 1 registration

        warning: optional plugin 'Ghost' failed; the deployment runs without it

        What went wrong:
          locate: plugin 'Ghost' (/nonexistent/libGhost.so) does not exist
          It registered nothing before it failed, so what depends on it is not known; a dependency only it would serve is reported as missing.

        Action:
          Fix what stopped plugin 'Ghost' at stage 'locate' to have it back; until then, nothing it registers is available.

        check: 0 errors, 1 warning; the deployment is healthy

        """)
    let json = try Subprocess.plugboard(["check", "--json", "--manifest", manifest])
    #expect(json.stdout.contains(#""kind" : "optionalPluginFailed""#))
    #expect(json.stdout.contains(#""healthy" : true"#))
    _ = folder
  }

  /// Analytics, optional, is missing: what it would have served is not
  /// known, but the optional dependencies nothing serves now are named.
  @Test func checkNamesTheOptionalDependenciesNothingServes() throws {
    let folder = try TemporaryDirectory()
    let gone = "/nonexistent/libAnalytics.so"
    let manifest = try folder.write(
      "plugins.json",
      SampleManifest.text(analytics: gone).replacingOccurrences(
        of: #""path": "\#(gone)" }"#, with: #""path": "\#(gone)", "optional": true }"#))
    let result = try Subprocess.plugboard(["check", "--manifest", manifest, "--profile", "live"])
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    let start = try #require(
      lines.firstIndex(of: "  Optional dependencies nothing serves now, which it may have provided:"))
    #expect(
      Array(lines[(start + 1)...].prefix(3)) == [
        "    AnalyticsTracker, wanted by LoginFeature (at Login/LoginAssembly.swift:7 in plugin Login)",
        "    AnalyticsTracker, wanted by AppFeature contribution \"issues\" (at IssueList/IssueListAssembly.swift:9 in plugin IssueList)",
        "    AnalyticsTracker, wanted by Application (at Shell/ShellAssembly.swift:16 in plugin Shell)",
      ])
  }

  @Test func listJSONMarksTheOptionalPlugin() throws {
    let (folder, manifest) = try Self.manifest("Ghost", path: "/nonexistent/libGhost.so")
    let result = try Subprocess.plugboard(["list", "--json", "--manifest", manifest])
    #expect(result.status == 0)
    let document = try #require(
      JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let plugins = try #require(document["plugins"] as? [[String: Any]])
    #expect(plugins.map { $0["optional"] as? Bool } == [nil, true])
    #expect(plugins.map { $0["status"] as? String } == ["loaded", "failed"])
    #expect(document["healthy"] as? Bool == true)
    _ = folder
  }

  @Test func theDecoderRefusesANonBooleanOptional() throws {
    let folder = try TemporaryDirectory()
    let path = try folder.write(
      "plugins.json",
      #"{ "formatVersion": 1, "plugins": [{ "name": "A", "path": "a.so", "optional": "yes" }] }"#)
    guard case .failure(.invalid(_, let problems)) = ManifestReader.read(path: path, origin: .defaultLocation)
    else {
      Issue.record("expected a refusal")
      return
    }
    #expect(problems.map(\.description) == ["plugins[0].optional: expected a boolean, found a string"])
  }
}
