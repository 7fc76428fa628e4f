import PlugboardKit

extension Inject {
  /// A dependency read through a property you declare on ``Container``,
  /// the key-path spelling some containers use (`@Inject(\.userRepository)`
  /// over a container's property):
  ///
  /// ```swift
  /// extension Container {
  ///   var userRepository: (any UserRepository)? { try? resolveIfRegistered() }
  /// }
  /// final class UserService {
  ///   @Inject(\.userRepository) var repository: any UserRepository
  /// }
  /// ```
  ///
  /// The key path names the dependency once, checked by the compiler
  /// (a property of another type does not compile). When it gives `nil`
  /// (nothing registered, or its `try?` swallowed a failing factory),
  /// injection resolves `Value` unnamed, so what reaches the caller is
  /// that request's ``ResolutionError`` report, not a bare "nil". For
  /// `plugboard check` the property is an optional dependency on `Value`:
  /// what the key path reads is code a check cannot see.
  public convenience init(_ keyPath: KeyPath<Container, Value?>) {
    self.init(reading: { $0[keyPath: keyPath] }, fallback: nil)
  }

  /// ``init(_:)-(KeyPath<Container,Value?>)`` with a default taken when the
  /// key path gives `nil`: `@Inject(\.cache, default: InMemoryCache())`.
  public convenience init(
    _ keyPath: KeyPath<Container, Value?>, default: @escaping @autoclosure () -> Value
  ) {
    self.init(reading: { $0[keyPath: keyPath] }, fallback: `default`)
  }

  /// ``init(_:)-(KeyPath<Container,Value?>)`` for an optional property:
  /// `@Inject(\.analytics) var analytics: (any Analytics)?` is `nil` when
  /// the key path gives `nil`.
  public convenience init(_ keyPath: KeyPath<Container, Value>) where Value: ExpressibleByNilLiteral {
    self.init(reading: { .some($0[keyPath: keyPath]) }, fallback: nil)
  }
}
