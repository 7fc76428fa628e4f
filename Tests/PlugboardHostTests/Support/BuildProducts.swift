import Foundation

/// Where the things under test are: the build products next to the running
/// test executable (so a custom `--scratch-path` works), and the package's
/// source tree.
enum BuildProducts {
  /// The folder holding the test executable, `plugboard` and the plugins.
  static let directory: String = {
    let executable =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: executable).deletingLastPathComponent().path
  }()

  /// The root package's folder, from this file's path.
  static let packageRoot: String = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

  /// The build's scratch folder (`.build`), which holds the products, the
  /// compiled C fixtures and the third-party plugin's build: the plugin root
  /// test manifests list, since plugins must lie inside one.
  static let scratch: String = URL(fileURLWithPath: directory + "/../..").standardizedFileURL
    .resolvingSymlinksInPath().path

  /// `"pluginRoots": ["<scratch>"], ` for a test manifest's top level.
  static var rootsMember: String { #""pluginRoots": ["\#(scratch)"], "# }

  /// The `plugboard` executable: the launcher operators run, which starts
  /// ``host`` beside it.
  static var plugboard: String { directory + "/plugboard" }

  /// `plugboard-host`, the Swift program that does the work.
  static var host: String { directory + "/plugboard-host" }

  /// The library of a plugin product of the root package.
  static func library(_ product: String) -> String { directory + "/lib\(product).so" }

  /// The sample plugins of the root package, in `plugins.json` order.
  static let samplePlugins = ["Networking", "Keychain", "Auth", "AuthMock", "Login", "IssueList", "Shell"]

  /// The sample plugins that load in profile `live` (all but `AuthMock`).
  static let livePlugins = samplePlugins.filter { $0 != "AuthMock" }
}
