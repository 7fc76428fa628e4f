// Plugin Tomorrow, built against WeatherContracts 1 by the host tests
// (WeatherBuild) and deployed in a folder of its own without
// libWeatherContracts.so: a plugin moved away from its neighbour.
import PlugboardKit
import WeatherContracts

@_cdecl("plugboard_entry_v1")
public func plugboardEntry() -> UnsafeRawPointer {
  PluginExport.descriptor(name: "Tomorrow", version: "1.0.0") { [TomorrowAssembly()] }
}

struct Rainy: WeatherService {
  func today() -> String { "rain" }
}

struct TomorrowAssembly: Assembly {
  func assemble(container: Container) throws {
    container.register((any WeatherService).self, name: "tomorrow") { _ in Rainy() }.dependsOn()
  }
}
