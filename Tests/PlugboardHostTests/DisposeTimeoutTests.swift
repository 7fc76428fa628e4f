import PlugboardKit
import Testing

@testable import PlugboardEngine

/// A deployment's scopes dispose within the manifest's `hookTimeout`, the
/// limit of its lifecycle hooks.
@Suite struct DisposeTimeoutTests {
  @Test func aDeploymentsScopesFollowItsHookTimeout() throws {
    let manifest = try ManifestReader.decode(
      Array(
        #"{"formatVersion": 1, "pluginRoots": ["/nonexistent"], "hookTimeout": 0.25, "plugins": []}"#.utf8),
      path: "/virtual/plugins.json"
    ).get()
    let deployment = Deployment.bringUp(
      manifest, loader: PluginLoader(progress: ChildSession()), settings: HostSettings())
    #expect(deployment.container.disposeTimeout == .milliseconds(250))
    #expect(deployment.container.makeScope().disposeTimeout == .milliseconds(250))
    #expect(deployment.container.makeScope(disposeTimeout: .seconds(1)).disposeTimeout == .seconds(1))
  }
}
