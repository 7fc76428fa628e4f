import PlugboardAnalysis
import PlugboardKit

@testable import PlugboardEngine

/// A deployment whose container is assembled in the test process, with no
/// plugin loaded, for the analyses that read only declarations (`check`,
/// `graph`): every registration is attributed to one plugin, `plugin`.
enum InProcessDeployment {
  static func make(plugin: String = "Sample", _ assemble: (Container) -> Void) throws -> Deployment {
    let container = Container()
    container.attributing(to: plugin) { assemble(container) }
    let manifest = try ManifestReader.decode(
      Array(#"{"formatVersion": 1, "pluginRoots": ["/nonexistent"], "plugins": []}"#.utf8),
      path: "/virtual/plugins.json"
    ).get()
    return Deployment(
      manifest: manifest, outcomes: [], container: container, progress: ChildSession(),
      settings: HostSettings())
  }

  /// The findings `plugboard check` reports for the deployment.
  static func findings(plugin: String = "Sample", _ assemble: (Container) -> Void) throws -> [Finding] {
    DeploymentChecker(try make(plugin: plugin, assemble), environment: [:]).check().findings
  }
}
