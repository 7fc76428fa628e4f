/// One step of a resolution chain: which key was being resolved, and which
/// registration served it (like Dagger's "X is injected at …").
///
/// A ``ResolutionError`` carries its chain as these typed links; `check`'s
/// findings carry the same links as ``ChainStep``s, spelt as strings for
/// their reports.
public struct ChainLink: Sendable, Hashable, CustomStringConvertible {
  public let key: ServiceKey
  /// The registration that served the key; `nil` for the failing link when
  /// nothing was registered.
  public let site: RegistrationSite?
  public let scope: ObjectScope?

  public init(key: ServiceKey, site: RegistrationSite?, scope: ObjectScope?) {
    self.key = key
    self.site = site
    self.scope = scope
  }

  public var description: String {
    guard let site else { return key.shortDescription }
    return "\(key.shortDescription) (\(site))"
  }
}
