import PlugboardKit

/// How a suggested fix writes a service's metatype in Swift:
/// `(any SecureStore).self` for a protocol, `Session.self` for a concrete
/// type. Packages made by `plugboard new` enable `ExistentialAny`, under
/// which `SecureStore.self` is a warning, so a fix to copy spells it out.
enum MetatypeSpelling {
  /// `(any SecureStore).self` or `Session.self`, without the module.
  static func of(_ service: TypeIdentity) -> String {
    let name = service.shortName
    return (TypeOrigin.isProtocol(service.type) ? "(any \(name))" : name) + ".self"
  }

  /// `register((any SecureStore).self, name: "Mock")`'s argument list,
  /// with the name when there is one.
  static func registration(_ key: ServiceKey) -> String {
    of(key.service) + (key.name.map { ", name: \"\($0)\"" } ?? "")
  }
}
