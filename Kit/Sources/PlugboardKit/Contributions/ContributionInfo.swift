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
    guard key.isContribution else { return nil }
    guard
      let slot = contributions.slots(for: key.service.id).first(where: { $0.sequence == key.role.sequence })
    else {
      return nil
    }
    return ContributionInfo(
      contract: key.service, name: slot.name, order: slot.order, sequence: slot.sequence)
  }
}
