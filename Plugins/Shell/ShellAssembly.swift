import AppContracts
import PlugboardKit

/// The app's composition root: the console and the `Application` that
/// `plugboard run` resolves, which signs in and then shows every
/// `AppFeature` contributed by any plugin (this one adds "Help").
struct ShellAssembly: Assembly {
  func assemble(container: Container) throws {
    container.register((any AppConsole).self) { _ in StandardOutputConsole() }
      .inObjectScope(.container).dependsOn()  // resolves nothing
    // In every profile but `live` (later registrations of a key win, and an
    // inactive one neither serves nor replaces): label fixture output.
    container.autoregister((any AppConsole).self) { LabelledConsole(label: "[fixture]") }
      .inObjectScope(.container)
      .inProfiles("!live")
    container.register((any Application).self) { resolver in
      // plugboard's Logger (or a plugin's, if one replaced it); `info` is
      // shown with `plugboard run --log-level info` or `--verbose`.
      let logger = try resolver.resolve((any Logger).self)
      logger.info("Shell: starting the sample application")
      return SampleApplication(
        login: try resolver.resolve(), features: try resolver.resolve(Contributions<any AppFeature>.self),
        console: try resolver.resolve(), analytics: try resolver.resolveIfRegistered())
    }
    .dependsOn(
      (any LoginFeature).self, Contributions<any AppFeature>.self, (any AppConsole).self, (any Logger).self
    )
    .optionallyDependsOn((any AnalyticsTracker).self)
    container.contribute((any AppFeature).self, name: "help", order: 90) { _ in HelpFeature() }
      .dependsOn()  // resolves nothing
    // For `plugboard check`: a profile whose menu would be empty is an
    // error there.
    container.extensionPoint((any AppFeature).self, cardinality: .atLeastOne)
  }
}
