/// A choice, made by configuration, of which named registration serves the
/// unnamed requests for a service type (see ``Container/select(name:for:reason:)``).
public struct ServiceSelection: Sendable, Hashable, CustomStringConvertible {
  public let service: TypeIdentity
  /// The registration name that serves unnamed requests.
  public let name: String
  /// Why, for people: "chosen by profile 'mock'".
  public let reason: String

  public var description: String {
    "\(service.name) is served by its registration named \"\(name)\" (\(reason))"
  }
}
