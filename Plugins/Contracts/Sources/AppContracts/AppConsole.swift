/// Where the sample app writes what the user sees. One line at a time.
public protocol AppConsole: Sendable {
  func write(_ line: String)
}
