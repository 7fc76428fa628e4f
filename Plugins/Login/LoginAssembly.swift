import AppContracts
import PlugboardKit

/// Feature layer: the sign-in screen, and the app's "Account" section.
struct LoginAssembly: Assembly {
  func assemble(container: Container) throws {
    container.register((any LoginFeature).self) { resolver in
      LoginScreen(
        auth: try resolver.resolve(), console: try resolver.resolve(),
        analytics: try resolver.resolveIfRegistered())
    }
    .dependsOn((any AuthService).self, (any AppConsole).self)
    .optionallyDependsOn((any AnalyticsTracker).self)
    // A contribution to the app's extension point: added beside the other
    // plugins' features, replacing none.
    container.contribute((any AppFeature).self, name: "account", order: 10) { _ in AccountFeature() }
      .dependsOn()  // resolves nothing
  }
}
