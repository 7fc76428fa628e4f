import AppContracts
import PlugboardKit

/// Feature layer: the list of open issues.
struct IssueListAssembly: Assembly {
  func assemble(container: Container) throws {
    container.register((any IssueListFeature).self) { resolver in
      IssueListScreen(
        api: try resolver.resolve(), auth: try resolver.resolve(),
        analytics: try resolver.resolveIfRegistered())
    }
    .dependsOn((any APIClient).self, (any AuthService).self)
    .optionallyDependsOn((any AnalyticsTracker).self)
  }
}
