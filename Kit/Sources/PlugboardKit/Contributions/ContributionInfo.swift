/// One contribution to an extension point, as listings and checks see it:
/// what ``Container/contribution(of:)`` answers for a contribution's
/// registration.
public struct ContributionInfo: Sendable, Hashable {
  /// The extension point: the contract the contribution serves.
  public let contract: TypeIdentity
  /// The name given to `contribute`; `nil` when it was given none.
  public let name: String?
  /// The declared order (lower first).
  public let order: Int
  /// Its place among every contribution made in the process: registration
  /// order, which breaks ties of `order`.
  public let sequence: Int
}

extension ServiceKey {
  /// Whether this is the key a contribution is stored under (its name is
  /// reserved: see ``Container/contribute(_:name:order:file:line:factory:)``).
  /// Nobody requests such a key; listings and checks show it as a
  /// contribution, not as a name.
  public var isContribution: Bool { ContributionIndex.isReserved(name) }

  /// Whether this is the key a `Contributions<Service>` dependency declares:
  /// every contribution to `service`, which checks treat as an optional
  /// edge to the extension point, never as a missing registration.
  public var isExtensionPoint: Bool { name == ContributionIndex.extensionPointName }

  /// The name given to the contribution this key stores, read from its
  /// reserved name; `nil` for an unnamed contribution or another key.
  public var contributionName: String? {
    guard isContribution, let name, let colon = name.firstIndex(of: ":") else { return nil }
    return String(name[name.index(after: colon)...].dropFirst())
  }

  /// How a key's name reads in a description: `named "Mock"`, and for the
  /// reserved names `contribution "help"`, `contribution #12` (unnamed) or
  /// `(every contribution)`, never the raw NUL-prefixed name.
  static func nameClause(_ name: String) -> String {
    guard name.hasPrefix("\u{0}") else { return " named \"\(escaped(name))\"" }
    if name == ContributionIndex.extensionPointName { return " (every contribution)" }
    if name.hasPrefix(DecoratorIndex.reservedPrefix) {
      let rest = name.dropFirst(DecoratorIndex.reservedPrefix.count)
      guard let colon = rest.firstIndex(of: ":") else { return " decorator #\(rest)" }
      return " decorator \"\(escaped(String(rest[rest.index(after: colon)...].dropFirst())))\""
    }
    guard name.hasPrefix(ContributionIndex.reservedPrefix) else { return " named \"\(escaped(name))\"" }
    let rest = name.dropFirst(ContributionIndex.reservedPrefix.count)
    guard let colon = rest.firstIndex(of: ":") else { return " contribution #\(rest)" }
    return " contribution \"\(escaped(String(rest[rest.index(after: colon)...].dropFirst())))\""
  }
}

extension Container {
  /// The contribution registered under `key` in this container (active in
  /// the current profile or not), with its declared order; `nil` when `key`
  /// is not a contribution made here.
  ///
  /// ```swift
  /// for info in container.registrations {
  ///   if let contribution = container.contribution(of: info.key) { print(contribution.order) }
  /// }
  /// ```
  public func contribution(of key: ServiceKey) -> ContributionInfo? {
    guard key.isContribution, let reserved = key.name else { return nil }
    guard let slot = contributions.slots(for: key.service.id).first(where: { $0.key == reserved }) else {
      return nil
    }
    return ContributionInfo(
      contract: key.service, name: slot.name, order: slot.order, sequence: slot.sequence)
  }
}
