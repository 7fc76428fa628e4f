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

  public init(key: ServiceKey, kind: Kind) {
    self.key = key
    self.kind = kind
  }

  /// `Lazy<Contracts.Engine>`, `Contracts.Parent (after init)`.
  public var description: String {
    switch kind {
    case .lazy: "Lazy<\(key)>"
    case .provider: "Provider<\(key)>"
    case .afterInit: "\(key) (after init)"
    }
  }
}
