import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// What `list` and `explain` say of the operating features: a plugin's
/// being optional, discovered and what it requires, and a registration's
/// start and stop hooks — in text and JSON.
@Suite(.blocking) struct ListingAnnotationsTests {
  private func manifest(in folder: TemporaryDirectory) throws -> String {
    let plugins = [
      #"{ "name": "LifecycleProbe", "path": "\#(BuildProducts.library("LifecycleProbe"))" }"#,
      #"{ "name": "RequirerA", "path": "\#(BuildProducts.library("RequirerA"))" }"#,
      #"{ "name": "RequirerB", "path": "\#(BuildProducts.library("RequirerB"))", "optional": true }"#,
    ]
    return try folder.write(
      "plugins.json",
      #"{ "formatVersion": 1, \#(BuildProducts.rootsMember) "plugins": [ \#(plugins.joined(separator: ", ")) ] }"#
    )
  }

  @Test func listNamesHooksOptionalAndRequirements() throws {
    let folder = try TemporaryDirectory()
    let result = try Subprocess.plugboard(["list", "--manifest", try manifest(in: folder)])
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    let site = "LifecycleProbe/LifecycleProbePlugin.swift"
    #expect(
      lines.filter { $0.hasPrefix("  LifecycleProbe.") } == [
        "  LifecycleProbe.Cache      -     container (start, stop hooks)  \(site):24",
        "  LifecycleProbe.Sessions   -     container (start, stop hooks)  \(site):45",
        "  LifecycleProbe.Pool       -     container (start, stop hooks)  \(site):52",
      ])
    #expect(
      lines.first { $0.hasPrefix("RequirerB ") }?.hasSuffix("(optional; requires RequirerA 1.0.0..<2.0.0)")
        == true)
    #expect(lines.first { $0.hasPrefix("RequirerA ") }?.hasSuffix("libRequirerA.so") == true)

    let json = try Subprocess.plugboard(["list", "--manifest", try manifest(in: folder), "--json"])
    let document = try JSONParser.parse(json.stdout)
    guard case .array(let plugins)? = document["plugins"] else {
      Issue.record("no plugins in \(json.stdout)")
      return
    }
    #expect(plugins.last?["requires"] == .array([.string("RequirerA 1.0.0..<2.0.0")]))
    #expect(plugins.last?["optional"] == .bool(true))
    guard case .array(let registrations)? = plugins.first?["registrations"] else {
      Issue.record("no registrations in \(json.stdout)")
      return
    }
    #expect(registrations.first?["hooks"] == .array([.string("start"), .string("stop")]))
    #expect(registrations.last?["hooks"] == nil)
  }

  @Test func explainSaysTheChosenRegistrationHasHooks() throws {
    let folder = try TemporaryDirectory()
    let result = try Subprocess.plugboard(["explain", "Pool", "--manifest", try manifest(in: folder)])
    #expect(result.status == 0)
    #expect(
      result.stdout.split(separator: "\n").contains(
        "  start and stop hooks: `plugboard run` starts it before the application, after what it depends on, "
          + "and stops it in reverse"))
  }
}
