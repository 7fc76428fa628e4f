import PlugboardKit

/// How a suggested fix writes a registration's key in Swift, as
/// ``PlugboardKit/TypeIdentity/metatypeSpelling`` writes the type:
/// `(any SecureStore).self, name: "Mock"`.
enum MetatypeSpelling {
  /// `register(…)`'s arguments for `key`, with its name when it has one.
  static func registration(_ key: ServiceKey) -> String {
    key.service.metatypeSpelling + (key.name.map { ", name: \"\($0)\"" } ?? "")
  }
}
