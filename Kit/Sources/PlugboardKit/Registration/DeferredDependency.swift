/// A dependency a registration resolves only after its instance exists:
/// through a ``Lazy`` or a ``Provider`` it was given, or in an
/// `initCompleted` handler.
///
/// `plugboard check` requires the target to be registered, like any other
/// dependency, but does not count the edge in a construction cycle: it is
/// how a cycle is broken.
public struct DeferredDependency: Sendable, Hashable, CustomStringConvertible {
  /// How the dependency is reached after construction.
  public enum Kind: String, Sendable, Hashable {
    /// Through a ``Lazy``: resolved once, on first use.
    case lazy
    /// Through a ``Provider``: resolved on every use.
    case provider
    /// In an `initCompleted` handler, right after construction.
    case afterInit
  }

  public let key: ServiceKey
  public let kind: Kind
  /// Whether it is read with `await` (an ``AsyncLazy`` or
  /// ``AsyncProvider``): then an async registration may serve it, even to
  /// a synchronous factory, which only stores the wrapper.
  public let isAwaited: Bool

  public init(key: ServiceKey, kind: Kind) {
    self.init(key: key, kind: kind, isAwaited: false)
  }

  /// A dependency reached through an async wrapper when `isAwaited`.
  public init(key: ServiceKey, kind: Kind, isAwaited: Bool) {
    self.key = key
    self.kind = kind
    self.isAwaited = isAwaited
  }

  /// `Lazy<Contracts.Engine>`, `AsyncProvider<Contracts.Feed>`,
  /// `Contracts.Parent (after init)`.
  public var description: String {
    let prefix = isAwaited ? "Async" : ""
    return switch kind {
    case .lazy: "\(prefix)Lazy<\(key)>"
    case .provider: "\(prefix)Provider<\(key)>"
    case .afterInit: "\(key) (after init)"
    }
  }
}
