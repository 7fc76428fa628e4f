import AppContracts
import PlugboardKit

/// Provides the event tracker the features use when it is deployed.
struct AnalyticsAssembly: Assembly {
  func assemble(container: Container) throws {
    container.autoregister((any AnalyticsTracker).self) { MemoryAnalyticsTracker() }
      .inObjectScope(.container)
  }
}
