// Plugin Forecast, built against WeatherContracts 2 by the host tests
// (WeatherBuild): it needs WeatherAlerts, which WeatherContracts 1 lacks.
import PlugboardKit
import WeatherContracts

@_cdecl("plugboard_entry_v1")
public func plugboardEntry() -> UnsafeRawPointer {
  PluginExport.descriptor(name: "Forecast", version: "1.0.0") { [ForecastAssembly()] }
}

struct Storms: WeatherAlerts {
  func alerts() -> [String] { ["storm"] }
}

struct ForecastAssembly: Assembly {
  func assemble(container: Container) throws {
    container.register((any WeatherAlerts).self) { _ in Storms() }.dependsOn()
  }
}
