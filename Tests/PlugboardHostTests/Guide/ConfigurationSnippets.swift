import Foundation
import PlugboardKit
import Testing

// The Swift code of Docs/configuration.md, compiled here so the page cannot
// show code that does not build; ConfigurationGuideTests checks that each
// region between `// guide: NAME` and `// end guide` appears verbatim in a
// ```swift block of the page, and runs the test below.

/// What the documented Forecast plugin's assembly registers.
struct ForecastClient: Sendable {
  let endpoint: String
  let units: String
}

// guide: settings
/// What the Forecast plugin reads from its configuration.
enum ForecastSettings {
  static let endpoint = Setting<String>("endpoint", summary: "the forecast API's base URL")
  static let units = Setting<String>("units", default: "metric", summary: "metric or imperial")
  static let timeout = Setting<Duration>("timeout", default: .seconds(5))
  static let apiKey = Setting<String?>("apiKey", secret: true, summary: "sent with every request, if set")

  static let all: [any DeclaredSetting] = [endpoint, units, timeout, apiKey]
}
// end guide

// guide: entry
/// In a plugin this is `@_cdecl("plugboard_entry_v1") public func plugboardEntry()`.
func forecastDescriptor() -> UnsafeRawPointer {
  PluginExport.descriptor(name: "Forecast", version: "1.0.0", settings: ForecastSettings.all) { config in
    [
      ForecastAssembly(
        endpoint: try config[ForecastSettings.endpoint],
        units: try config[ForecastSettings.units])
    ]
  }
}
// end guide

// guide: assembly
struct ForecastAssembly: Assembly {
  let endpoint: String
  let units: String

  func assemble(container: Container) {
    container.register(ForecastClient.self) { _ in ForecastClient(endpoint: endpoint, units: units) }
      .dependsOn()
  }
}
// end guide

// guide: test
@Test func forecastReadsItsConfiguration() throws {
  let configuration = PluginConfiguration(
    plugin: "Forecast", settings: ForecastSettings.all,
    values: ["endpoint": ConfiguredValue(.string("https://forecast.example"))])
  #expect(try configuration[ForecastSettings.endpoint] == "https://forecast.example")
  #expect(try configuration[ForecastSettings.units] == "metric")  // the default
  #expect(try configuration[ForecastSettings.apiKey] == nil)  // optional, unset
  let assembly = ForecastAssembly(
    endpoint: try configuration[ForecastSettings.endpoint], units: try configuration[ForecastSettings.units])
  let client: ForecastClient = try Assembler([assembly]).resolver.resolve()
  #expect(client.units == "metric")
}
// end guide
