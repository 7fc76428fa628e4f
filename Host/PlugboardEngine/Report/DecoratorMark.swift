import PlugboardKit

/// What marks a registration as a decorator in `list --json` and `graph
/// --format json`: the registration it decorates and its declared order.
/// Its name, if any, is the registration's `name`.
package struct DecoratorMark: Encodable, Sendable, Equatable {
  /// The decorated registration: `AppContracts.APIClient`, or with its
  /// name, `AppContracts.APIClient named "Mock"`.
  package let decorates: String
  package let order: Int
  /// Whether the decorator's factory is async.
  package let async: Bool

  /// The mark of the registration under `key` in `container`; `nil` for
  /// any other registration.
  static func of(_ key: ServiceKey, in container: Container) -> DecoratorMark? {
    container.decorator(of: key).map {
      DecoratorMark(decorates: $0.target.description, order: $0.order, async: $0.isAsync)
    }
  }
}
