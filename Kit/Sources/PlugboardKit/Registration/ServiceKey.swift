/// What a registration answers to: a service type, an optional name, the
/// types of the runtime arguments its factory takes, and its ``Role``
/// (a service, or a decorator or contribution kept beside the services).
///
/// Registering twice with an equal key replaces the earlier registration
/// (see ``Container/duplicateRegistrations``).
@frozen public struct ServiceKey: Hashable, Sendable, CustomStringConvertible {
  public let service: TypeIdentity
  public let name: String?
  /// The runtime argument types, in order; empty for a plain factory.
  public let arguments: [TypeIdentity]
  /// What kind of registration the key stores; ``Role/service`` for every
  /// key a request names.
  public let role: Role

  public init(
    service: TypeIdentity, name: String? = nil, arguments: [TypeIdentity] = [], role: Role = .service
  ) {
    self.service = service
    self.name = name
    self.arguments = arguments
    self.role = role
  }

  public init(_ type: any Any.Type, name: String? = nil, role: Role = .service) {
    self.init(service: TypeIdentity(type), name: name, role: role)
  }

  /// `Contracts.AuthRepository named "Mock" with arguments (String, Int)`.
  /// A name's quotes, backslashes and control characters are escaped, as in
  /// a Swift string literal: names come from plugins, and a description is
  /// printed, so a name holding a line break must not start a line of its own.
  /// A contribution's key reads `contribution "help"` instead of its name,
  /// and a decorator's `decorator "timing"`, without the instance it takes.
  public var description: String {
    var text = service.name + nameClause
    if !arguments.isEmpty && !isDecorator {
      text += " with arguments (\(arguments.map(\.name).joined(separator: ", ")))"
    }
    return text
  }

  /// Like ``description`` with unqualified type names, for compact chains.
  public var shortDescription: String {
    var text = service.shortName + nameClause
    if !arguments.isEmpty && !isDecorator {
      text += " (\(arguments.map(\.shortName).joined(separator: ", ")))"
    }
    return text
  }

  /// `name` as the inside of a Swift string literal: `\"`, `\\`, `\n`, `\t`,
  /// and `\u{…}` for the other control characters.
  static func escaped(_ name: String) -> String {
    guard name.unicodeScalars.contains(where: { $0 == "\"" || $0 == "\\" || isControl($0) }) else {
      return name
    }
    var text = ""
    for scalar in name.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\n": text += "\\n"
      case "\t": text += "\\t"
      case _ where isControl(scalar): text += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      default: text.unicodeScalars.append(scalar)
      }
    }
    return text
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }
}
