/// What a registration answers to: a service type, an optional name, and the
/// types of the runtime arguments its factory takes.
///
/// Registering twice with an equal key replaces the earlier registration
/// (see ``Container/duplicateRegistrations``).
public struct ServiceKey: Hashable, Sendable, CustomStringConvertible {
  public let service: TypeIdentity
  public let name: String?
  /// The runtime argument types, in order; empty for a plain factory.
  public let arguments: [TypeIdentity]

  public init(service: TypeIdentity, name: String? = nil, arguments: [TypeIdentity] = []) {
    self.service = service
    self.name = name
    self.arguments = arguments
  }

  public init(_ type: any Any.Type, name: String? = nil) {
    self.init(service: TypeIdentity(type), name: name)
  }

  /// `Contracts.AuthRepository named "Mock" with arguments (String, Int)`.
  public var description: String {
    var text = service.name
    if let name { text += " named \"\(name)\"" }
    if !arguments.isEmpty { text += " with arguments (\(arguments.map(\.name).joined(separator: ", ")))" }
    return text
  }

  /// Like ``description`` with unqualified type names, for compact chains.
  public var shortDescription: String {
    var text = service.shortName
    if let name { text += " named \"\(name)\"" }
    if !arguments.isEmpty { text += " (\(arguments.map(\.shortName).joined(separator: ", ")))" }
    return text
  }
}
