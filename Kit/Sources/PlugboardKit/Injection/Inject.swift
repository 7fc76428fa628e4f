/// A property filled from a container by ``Container/inject(into:)``:
/// `@Inject var logger: any Logger` (required), `@Inject var analytics:
/// (any Analytics)?` (nil when nothing is registered), `@Inject(default:
/// InMemoryCache()) var cache: any Cache` (the default when nothing is
/// registered), or `@Inject(name: "audit")`. PlugboardCompat adds the
/// key-path spelling, `@Inject(\.userRepository)`, which reads a property
/// you declare on ``Container``.
///
/// The container is always explicit — the one passed to `inject(into:)` —
/// never a process-wide global, so tests can inject from their own
/// container. Swift property wrappers cannot throw when read, so the
/// design splits the two steps: `inject(into:)` resolves every wrapper and
/// throws the full ``ResolutionError`` of the first one that fails; the
/// value is read afterwards. Reading before a successful injection is a
/// programming error (as reading an unset implicitly unwrapped optional):
/// it stops the process with a message naming the property's type. Code
/// that cannot guarantee the order reads `try $logger.value`, which throws
/// ``InjectionError`` instead.
@propertyWrapper
public final class Inject<Value> {
  private let name: String?
  private let fallback: (() -> Value)?
  /// The key path's read, for `@Inject(\.property)`: `nil` when it gave
  /// nothing.
  private let read: ((Container) -> Value?)?
  private var stored: Value?
  private var injected = false

  /// A required dependency (or, when `Value` is optional, one that is nil
  /// when nothing is registered), registered under `name`.
  public init(name: String? = nil) {
    self.name = name
    self.fallback = nil
    self.read = nil
  }

  /// A dependency that takes `default` when nothing is registered under
  /// `name`; a registration that exists but fails still throws.
  public init(name: String? = nil, default: @escaping @autoclosure () -> Value) {
    self.name = name
    self.fallback = `default`
    self.read = nil
  }

  /// A dependency read by `read` from the container being injected from,
  /// for a request a name cannot say: when `read` gives `nil`, `fallback`
  /// gives the value, and without one injection resolves `Value` unnamed,
  /// so what reaches the caller is that request's ``ResolutionError``.
  ///
  /// ```swift
  /// @Inject(reading: { try? $0.resolve(Clock.self, name: "utc") }) var clock: any Clock
  /// ```
  ///
  /// For `plugboard check` the property is an optional dependency on
  /// `Value`: what `read` does is code a check cannot see, so prefer
  /// ``init(name:)`` where a name says it.
  public init(reading read: @escaping (Container) -> Value?, fallback: (() -> Value)? = nil) {
    self.name = nil
    self.fallback = fallback
    self.read = read
  }

  /// The injected value. Traps when read before a successful
  /// ``Container/inject(into:)``; see the type's documentation.
  public var wrappedValue: Value {
    guard injected, let stored else {
      preconditionFailure(InjectionError(type: TypeIdentity(Value.self), name: name).description)
    }
    return stored
  }

  /// The wrapper itself, for `try $logger.value`.
  public var projectedValue: Inject<Value> { self }

  /// The injected value, or ``InjectionError`` when not injected yet.
  public var value: Value {
    get throws(InjectionError) {
      guard injected, let stored else { throw InjectionError(type: TypeIdentity(Value.self), name: name) }
      return stored
    }
  }
}

extension Inject: InjectionPoint {
  var declaredDependency: DeclaredDependency {
    let declared = DeclaredDependency.of(Value.self, name: name)
    guard fallback != nil || read != nil, case .required(let key) = declared else { return declared }
    return .optional(key)
  }

  func inject(from container: Container) throws {
    if let read {
      // The key path's request is opaque; unnamed `Value` is the one
      // request whose failure report can say what is missing.
      if let value = read(container) {
        stored = value
      } else if let fallback {
        stored = fallback()
      } else {
        stored = try container.resolve(Value.self)
      }
    } else if let fallback {
      stored = try container.resolveIfRegistered(Value.self, name: name) ?? fallback()
    } else {
      stored = try container.resolve(Value.self, name: name)
    }
    injected = true
  }
}

/// What ``Container/inject(into:)`` finds among an instance's stored
/// properties.
protocol InjectionPoint: AnyObject {
  /// The service the property reaches, as a whole-graph check sees it:
  /// required, optional (an optional type, or a default), or deferred
  /// (`Lazy`, `Provider`).
  var declaredDependency: DeclaredDependency { get }
  func inject(from container: Container) throws
}

/// An `@Inject` property was read before ``Container/inject(into:)``
/// filled it.
public struct InjectionError: Error, CustomStringConvertible, Sendable {
  /// The property's type.
  public let type: TypeIdentity
  /// The registration name the property asks for.
  public let name: String?

  public var description: String {
    let named = name.map { " named \"\($0)\"" } ?? ""
    return "@Inject property of type \(type)\(named) was read before container.inject(into:) filled it"
  }
}
