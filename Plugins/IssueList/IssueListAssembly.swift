import AppContracts
import PlugboardKit

/// Feature layer: the list of open issues, contributed to the app's
/// extension point. The app names no issue list: this plugin is discovered
/// in `plugins.d`, and its section appears because it contributes one.
struct IssueListAssembly: Assembly {
  func assemble(container: Container) throws {
    container.contribute((any AppFeature).self, name: "issues", order: 20) { resolver in
      IssueListScreen(
        api: try resolver.resolve(), auth: try resolver.resolve(),
        analytics: try resolver.resolveIfRegistered())
    }
    .dependsOn((any APIClient).self, (any AuthService).self)
    .optionallyDependsOn((any AnalyticsTracker).self)
  }
}
