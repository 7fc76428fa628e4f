/// A scope of your own: one instance per registration and container, shared
/// like `.container` until ``Container/resetObjectScope(_:)`` drops every
/// instance of the scope, after which the next request makes a new one.
///
/// The usual one is a session: declare it once, register session-wide
/// services in it, and reset it at sign-out.
///
/// ```swift
/// extension CustomScope {
///   static let session = CustomScope("session")
/// }
/// container.register(Cart.self) { _ in Cart() }.inObjectScope(.session)
/// container.resetObjectScope(.session)  // at sign-out
/// ```
///
/// Scopes are told apart by identity, not by name. Making an instance is
/// exactly-once per scope generation, as for `.container`, and resetting
/// is safe from any thread: a construction that was under way when the
/// scope was reset hands its instance to its own caller but does not keep
/// it, so no instance of the old session outlives the reset.
public final class CustomScope: Sendable, CustomStringConvertible {
  /// The name listings and diagnostics show.
  public let name: String

  /// Creates a scope; `name` is for display.
  public init(_ name: String) {
    self.name = name
  }

  public var description: String { name }
}
