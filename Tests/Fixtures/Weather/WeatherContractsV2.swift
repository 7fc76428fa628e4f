// WeatherContracts 2: version 1 plus WeatherAlerts (see WeatherContractsV1.swift).
public protocol WeatherService: Sendable {
  func today() -> String
}

public protocol WeatherAlerts: Sendable {
  func alerts() -> [String]
}
