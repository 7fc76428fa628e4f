import AppContracts
import PlugboardKit

/// Test-only: an `AnalyticsTracker` made once per container that holds an
/// `EventBuffer` registered `.transient` — a captive dependency.
@_cdecl("plugboard_entry_v1")
public func plugboardEntry() -> UnsafeRawPointer {
  PluginExport.descriptor(name: "CaptiveTracker", version: "0.0.1") { [CaptiveTrackerAssembly()] }
}

struct CaptiveTrackerAssembly: Assembly {
  func assemble(container: Container) throws {
    container.register((any AnalyticsTracker).self) { resolver in
      BufferedTracker(buffer: try resolver.resolve())
    }
    .inObjectScope(.container)
    .dependsOn(EventBuffer.self)
    container.autoregister(EventBuffer.self) { EventBuffer() }
      .inObjectScope(.transient)
  }
}
