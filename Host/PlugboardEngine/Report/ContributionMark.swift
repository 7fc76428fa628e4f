import PlugboardKit

/// What marks a registration as a contribution in `list --json` and
/// `graph --format json`: the extension point it contributes to and its
/// declared order. Its name, if any, is the registration's `name`.
package struct ContributionMark: Encodable, Sendable, Equatable {
  /// The fully qualified contract.
  package let extensionPoint: String
  package let order: Int

  /// The mark of the registration under `key` in `container`; `nil` for a
  /// plain registration.
  static func of(_ key: ServiceKey, in container: Container) -> ContributionMark? {
    container.contribution(of: key).map {
      ContributionMark(extensionPoint: $0.contract.name, order: $0.order)
    }
  }
}
