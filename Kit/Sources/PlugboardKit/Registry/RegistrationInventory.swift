/// A container's registrations at one moment, as they take part in one
/// profile: which serve their keys, which later ones replaced, which the
/// profile leaves out. What a whole-graph analysis reads (PlugboardAnalysis's
/// `check()`, the host's `list` and `explain`) without resolving anything
/// or changing the container's ``Container/activeProfile``.
///
/// ```swift
/// let mock = container.inventory(asIf: "mock")
/// for info in mock.serving { print(info.key, info.site) }
/// for duplicate in mock.duplicates { print(duplicate) }
/// ```
///
/// Taking one costs an allocation; what serves each key is worked out on
/// first use and kept, so ask one inventory rather than take several.
public struct RegistrationInventory: Sendable {
  let snapshot: RegistrySnapshot

  init(_ snapshot: RegistrySnapshot) {
    self.snapshot = snapshot
  }

  /// The profile whose `inProfiles` registrations take part; nil for none.
  public var profile: String? { snapshot.activeProfile }

  /// The registrations that serve their keys, in the order made.
  public var serving: [RegistrationInfo] { snapshot.infos }

  /// Every replacement of one registration by a later one of the same key,
  /// in the order of the replacing registrations.
  public var duplicates: [DuplicateRegistration] { snapshot.duplicates }

  /// The registrations the profile leaves out, in the order made.
  public var inactive: [RegistrationInfo] { snapshot.inactive.map(\.info) }

  /// The registration each service's unnamed requests are served by, where
  /// one was chosen (``Container/select(name:for:reason:)``), by service.
  public var selections: [ServiceSelection] {
    snapshot.selections.values.sorted { $0.service.name < $1.service.name }
  }
}

extension Container {
  /// This container's registrations as they would take part with `profile`
  /// active, the container left as it is; nil takes none.
  public func inventory(asIf profile: String?) -> RegistrationInventory {
    RegistrationInventory(registry(asIf: profile))
  }

  /// ``inventory(asIf:)`` of this container, then of each ancestor, nearest
  /// first: what serves a request the container itself does not.
  public func inventories(asIf profile: String?) -> [RegistrationInventory] {
    lineage.map { $0.inventory(asIf: profile) }
  }
}

extension Suggestion {
  /// The registrations of `inventories` (a container's, then its
  /// ancestors') that a request for `key` may have meant, most likely
  /// first, as a failed resolution suggests them.
  public static func candidates(for key: ServiceKey, in inventories: [RegistrationInventory]) -> [Suggestion]
  {
    candidates(for: key, in: inventories.map(\.snapshot))
  }
}
