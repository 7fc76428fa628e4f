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
