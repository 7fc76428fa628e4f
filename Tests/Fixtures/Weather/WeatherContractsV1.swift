// WeatherContracts 1: a tiny shared contracts module, compiled by the host
// tests (WeatherBuild) into its own libWeatherContracts.so. Version 2 adds
// a protocol; a plugin built against 2 needs a symbol 1 lacks.
public protocol WeatherService: Sendable {
  func today() -> String
}
