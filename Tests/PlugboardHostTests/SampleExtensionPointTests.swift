import Foundation
import Testing

/// The sample's extension point, `AppFeature`: the application shows every
/// feature the loaded plugins contribute and names none, so a plugin
/// dropped into a `pluginFolders` folder appears in its menu with no
/// change to the application or to the manifest's `plugins`.
@Suite struct SampleExtensionPointTests {
  /// The sample manifest with IssueList taken out of `plugins` and an
  /// empty `plugins.d` beside it, named in `pluginFolders`.
  private func withoutIssueList() throws -> (folder: TemporaryDirectory, manifest: String) {
    let analytics = try ThirdPartyBuild.analytics.get()
    let folder = try TemporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: folder.path + "/plugins.d", withIntermediateDirectories: false)
    let listed = #"{ "name": "IssueList", "path": "\#(BuildProducts.library("IssueList"))" },"#
    let sample = SampleManifest.text(analytics: analytics)
    try #require(sample.contains(listed))
    let text = sample.replacingOccurrences(of: listed, with: "")
      .replacingOccurrences(
        of: #""formatVersion": 1,"#, with: #""formatVersion": 1, "pluginFolders": ["plugins.d"],"#)
    return (folder, try folder.write("plugins.json", text))
  }

  @Test func aPluginDroppedIntoTheFolderAppearsInTheMenu() throws {
    let (folder, manifest) = try withoutIssueList()
    let before = try Subprocess.plugboard(["run", "--manifest", manifest])
    #expect(before.stderr == "")
    #expect(before.status == 0)
    #expect(before.stdout.contains("Menu (2 features): Account, Help\nAccount: Ada Lovelace (ada)\nHelp: "))
    #expect(!before.stdout.contains("Open issues"))

    // As Scripts/build-deployment does for the repository's plugins.d.
    try FileManager.default.createSymbolicLink(
      atPath: folder.path + "/plugins.d/libIssueList.so",
      withDestinationPath: BuildProducts.library("IssueList"))
    let after = try Subprocess.plugboard(["run", "--manifest", manifest])
    #expect(after.stderr == "")
    #expect(after.status == 0)
    // Loaded last (after Analytics), shown second: by declared order.
    #expect(after.stdout == ProfileDeploymentTests.liveOutput)
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

  /// The README's excerpt of its first command's output is the output.
  @Test func theReadmeQuotesTheRunsOutput() throws {
    let readme = try String(contentsOfFile: BuildProducts.packageRoot + "/README.md", encoding: .utf8)
    #expect(readme.contains("```\n" + ProfileDeploymentTests.liveOutput + "```\n"))
  }
}
