import AppContracts
import PlugboardKit

/// The app's composition root: the console and the `Application` that
/// `plugboard run` resolves, which drives the features.
struct ShellAssembly: Assembly {
  func assemble(container: Container) throws {
    container.register((any AppConsole).self) { _ in StandardOutputConsole() }
      .inObjectScope(.container)
    container.register((any Application).self) { resolver in
      SampleApplication(
        login: try resolver.resolve(), issues: try resolver.resolve(),
        console: try resolver.resolve(), analytics: try resolver.resolveIfRegistered())
    }
    .dependsOn((any LoginFeature).self, (any IssueListFeature).self, (any AppConsole).self)
  }
}
