import Foundation

/// The sample deployment's `plugins.json` as the repository has it (profiles
/// `live` and `mock`, `Auth` in every profile but `mock`, `AuthMock` only in
/// `mock`), pointing at this build's libraries by absolute path.
enum SampleManifest {
  /// Writes the sample manifest into `folder` with profile `mock`'s
  /// `services` object replaced by `services`; returns its path.
  static func write(in folder: TemporaryDirectory, mockServices services: String) throws -> String {
    let analytics = try ThirdPartyBuild.analytics.get()
    return try folder.write(
      "plugins.json",
      text(analytics: analytics).replacingOccurrences(of: #"{ "APIClient": "Mock" }"#, with: services))
  }

  /// The sample manifest with IssueList taken out of `plugins` and an
  /// empty `plugins.d` beside it, named in `pluginFolders`.
  static func withoutIssueList() throws -> (folder: TemporaryDirectory, manifest: String) {
    let analytics = try ThirdPartyBuild.analytics.get()
    let folder = try TemporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: folder.path + "/plugins.d", withIntermediateDirectories: false)
    let listed = #"{ "name": "IssueList", "path": "\#(BuildProducts.library("IssueList"))" },"#
    let sample = text(analytics: analytics)
    guard sample.contains(listed) else {
      throw FixtureFailure(description: "the sample manifest no longer lists IssueList as \(listed)")
    }
    let manifest = sample.replacingOccurrences(of: listed, with: "")
      .replacingOccurrences(
        of: #""formatVersion": 1,"#, with: #""formatVersion": 1, "pluginFolders": ["plugins.d"],"#)
    return (folder, try folder.write("plugins.json", manifest))
  }

  /// Links IssueList into the `plugins.d` of ``withoutIssueList()``'s
  /// `folder`, as Scripts/build-deployment does for the repository's.
  static func dropIssueList(into folder: TemporaryDirectory) throws {
    try FileManager.default.createSymbolicLink(
      atPath: folder.path + "/plugins.d/libIssueList.so",
      withDestinationPath: BuildProducts.library("IssueList"))
  }

  /// The sample manifest with the Timing plugin after Shell, followed by
  /// `after` (more entries, each ending with a comma).
  static func textWithTiming(then after: String = "") throws -> String {
    let analytics = try ThirdPartyBuild.analytics.get()
    let text = text(analytics: analytics)
    let shell = #"{ "name": "Shell", "path": "\#(BuildProducts.library("Shell"))" },"#
    guard text.contains(shell) else {
      throw FixtureFailure(description: "the sample manifest no longer lists Shell as \(shell)")
    }
    return text.replacingOccurrences(
      of: shell,
      with: shell + #" { "name": "Timing", "path": "\#(BuildProducts.library("Timing"))" },"# + after)
  }

  static func text(analytics: String, activeProfile: String = "live") -> String {
    func path(_ name: String) -> String { BuildProducts.library(name) }
    return """
      {
        "formatVersion": 1,
        \(BuildProducts.rootsMember)
        "activeProfile": "\(activeProfile)",
        "profiles": {
          "live": { "description": "the real implementations" },
          "mock": {
            "description": "offline, on fixture data", "services": { "APIClient": "Mock" },
            "config": { "Networking": { "baseURL": "fixture://issues", "timeout": 0.5 } }
          }
        },
        "plugins": [
          {
            "name": "Networking", "path": "\(path("Networking"))",
            "config": { "baseURL": "https://issues.example.com/api", "timeout": 5 }
          },
          { "name": "Keychain", "path": "\(path("Keychain"))" },
          { "name": "Auth", "path": "\(path("Auth"))", "profiles": ["!mock"] },
          { "name": "AuthMock", "path": "\(path("AuthMock"))", "profiles": ["mock"] },
          { "name": "Login", "path": "\(path("Login"))" },
          { "name": "IssueList", "path": "\(path("IssueList"))" },
          { "name": "Shell", "path": "\(path("Shell"))" },
          { "name": "Analytics", "path": "\(analytics)" }
        ]
      }

      """
  }
}
