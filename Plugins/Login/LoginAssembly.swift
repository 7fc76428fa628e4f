import AppContracts
import PlugboardKit

/// Feature layer: the sign-in screen.
struct LoginAssembly: Assembly {
  func assemble(container: Container) throws {
    container.register((any LoginFeature).self) { resolver in
      LoginScreen(
        auth: try resolver.resolve(), console: try resolver.resolve(),
        analytics: try resolver.resolveIfRegistered())
    }
    .dependsOn((any AuthService).self, (any AppConsole).self)
    .optionallyDependsOn((any AnalyticsTracker).self)
  }
}
