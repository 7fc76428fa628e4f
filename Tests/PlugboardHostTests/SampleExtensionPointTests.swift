import Foundation
import PlugboardTestSupport
import Testing

/// The sample's extension point, `AppFeature`: the application shows every
/// feature the loaded plugins contribute and names none, so a plugin
/// dropped into a `pluginFolders` folder appears in its menu with no
/// change to the application or to the manifest's `plugins`.
@Suite(.blocking) struct SampleExtensionPointTests {
  @Test func aPluginDroppedIntoTheFolderAppearsInTheMenu() throws {
    let (folder, manifest) = try SampleManifest.withoutIssueList()
    let before = try Subprocess.plugboard(["run", "--manifest", manifest])
    #expect(before.stderr == "")
    #expect(before.status == 0)
    #expect(before.stdout.contains("Menu (2 features): Account, Help\nAccount: Ada Lovelace (ada)\nHelp: "))
    #expect(!before.stdout.contains("Open issues"))

    try SampleManifest.dropIssueList(into: folder)
    let after = try Subprocess.plugboard(["run", "--manifest", manifest])
    #expect(after.stderr == "")
    #expect(after.status == 0)
    // Loaded last (after Analytics), shown second: by declared order.
    #expect(after.stdout == ProfileDeploymentTests.liveOutput)
  }

  /// The menu's order is the contributions' declared order (Login 10,
  /// IssueList 20, Shell 90), not the order plugins load in: the same in
  /// every run and with the manifest's plugins listed the other way round,
  /// as Docs/writing-a-plugin.md §9 says.
  @Test func theMenuKeepsItsOrderAcrossRunsAndManifestOrders() throws {
    let analytics = try ThirdPartyBuild.analytics.get()
    let folder = try TemporaryDirectory()
    let sample = SampleManifest.text(analytics: analytics)
    let manifest = try folder.write("plugins.json", sample)
    func line(_ output: String) -> Substring? {
      output.split(separator: "\n").first { $0.hasPrefix("Menu (") }
    }
    let first = try Subprocess.plugboard(["run", "--manifest", manifest])
    let second = try Subprocess.plugboard(["run", "--manifest", manifest])
    #expect(first.status == 0, "\(first.stderr)")
    #expect(line(first.stdout) == "Menu (3 features): Account, Open issues, Help")
    #expect(second.stdout == first.stdout)

    // Shell, IssueList and Login listed in the opposite order.
    let entries = ["Login", "IssueList", "Shell"].map { name in
      #"{ "name": "\#(name)", "path": "\#(BuildProducts.library(name))" },"#
    }
    for entry in entries { try #require(sample.contains(entry)) }
    var reversed = sample
    for entry in entries { reversed = reversed.replacingOccurrences(of: entry + "\n", with: "") }
    let analyticsEntry = #"{ "name": "Analytics", "path": "\#(analytics)" }"#
    try #require(reversed.contains(analyticsEntry))
    reversed = reversed.replacingOccurrences(
      of: analyticsEntry, with: entries.reversed().joined(separator: "\n") + "\n" + analyticsEntry)
    let swapped = try folder.write("reversed.json", reversed)
    let list = try Subprocess.plugboard(["list", "--manifest", swapped])
    let listed = list.stdout.split(separator: "\n").filter {
      $0.hasPrefix("Shell ") || $0.hasPrefix("IssueList ") || $0.hasPrefix("Login ")
    }.map { $0.prefix { $0 != " " } }
    #expect(listed == ["Shell", "IssueList", "Login"])
    let run = try Subprocess.plugboard(["run", "--manifest", swapped])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(line(run.stdout) == "Menu (3 features): Account, Open issues, Help")
  }

  /// The repository's own deployment, as the README's first command runs
  /// it: IssueList is not in plugins.json, it is discovered in plugins.d.
  @Test func theRepositorysManifestFindsIssueListOnlyInItsDropInFolder() throws {
    let manifest = try String(contentsOfFile: BuildProducts.packageRoot + "/plugins.json", encoding: .utf8)
    #expect(!manifest.contains("IssueList"))
    #expect(manifest.contains(#""pluginFolders": ["plugins.d"]"#))
    let shell = try String(
      contentsOfFile: BuildProducts.packageRoot + "/Plugins/Shell/ShellAssembly.swift", encoding: .utf8)
    #expect(!shell.contains("IssueList"))
  }

  /// The README's excerpt of its first command's output is the output:
  /// the repository's deployment (after `Scripts/build-deployment`, the
  /// README's first command), Timing's decorator and the drop-in included.
  @Test func theReadmeQuotesTheRunsOutput() throws {
    let readme = try String(contentsOfFile: BuildProducts.packageRoot + "/README.md", encoding: .utf8)
    let run = try Subprocess.plugboard(["run", "--manifest", BuildProducts.packageRoot + "/plugins.json"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(readme.contains("```\n" + run.stdout + "```\n"), "\(run.stdout)")
  }
}
