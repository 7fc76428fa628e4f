import Foundation

/// A deployment written for `plugboard check`: a `plugins.json` in a fresh
/// folder naming plugins of this build (or any library) in order, some of
/// them disabled.
struct CheckedDeployment {
  /// One entry of the manifest.
  struct Plugin {
    let name: String
    let path: String
    var enabled = true

    /// A plugin product of the root package, by name.
    static func built(_ name: String, enabled: Bool = true) -> Plugin {
      Plugin(name: name, path: BuildProducts.library(name), enabled: enabled)
    }
  }

  let folder: TemporaryDirectory
  let manifest: String

  /// The sample plugins that load in profile `live`, without Analytics.
  static let live = BuildProducts.livePlugins.map { Plugin.built($0) }

  init(_ plugins: [Plugin]) throws {
    folder = try TemporaryDirectory()
    let entries = plugins.map { plugin in
      #"    { "name": "\#(plugin.name)", "path": "\#(plugin.path)""#
        + (plugin.enabled ? "" : #", "enabled": false"#) + " }"
    }
    manifest = try folder.write(
      "plugins.json",
      "{\n  \"formatVersion\": 1, \(BuildProducts.rootsMember)\n  \"plugins\": [\n\(entries.joined(separator: ",\n"))\n  ]\n}\n"
    )
  }

  /// Runs `plugboard check` (and `extra` arguments) on it.
  func check(_ extra: [String] = []) throws -> ProcessResult {
    try Subprocess.plugboard(["check", "--manifest", manifest] + extra)
  }
}
