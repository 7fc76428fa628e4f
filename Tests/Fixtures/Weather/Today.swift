// Plugin Today, built against WeatherContracts 1 by the host tests
// (WeatherBuild): serves WeatherService and the Application, which prints
// today's weather.
import PlugboardKit
import WeatherContracts

@_cdecl("plugboard_entry_v1")
public func plugboardEntry() -> UnsafeRawPointer {
  PluginExport.descriptor(name: "Today", version: "1.0.0") { [TodayAssembly()] }
}

struct Sunny: WeatherService {
  func today() -> String { "sunny" }
}

struct Report: Application {
  let weather: any WeatherService

  func run(arguments: [String]) async throws -> Int32 {
    print("today: \(weather.today())")
    return 0
  }
}

struct TodayAssembly: Assembly {
  func assemble(container: Container) throws {
    container.register((any WeatherService).self) { _ in Sunny() }.dependsOn()
    container.register((any Application).self) { resolver in
      Report(weather: try resolver.resolve((any WeatherService).self))
    }.dependsOn((any WeatherService).self)
  }
}
