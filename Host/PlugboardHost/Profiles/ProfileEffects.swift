import PlugboardKit

/// What the active profile did to a deployment, as data: what chose it,
/// the plugins it left out, the services it switched to a named
/// registration, and the registrations its tags left out or let replace
/// another. `list` prints it and includes it in `--json`.
public struct ProfileEffects: Encodable, Sendable {
  public struct LeftOutPlugin: Encodable, Sendable {
    public let name: String
    /// `'mock'`, `every profile but 'live'`.
    public let loadsIn: String
  }

  public struct SwitchedService: Encodable, Sendable {
    /// The fully qualified service type.
    public let type: String
    /// The registration name that serves its unnamed requests.
    public let name: String
  }

  public struct TaggedRegistration: Encodable, Sendable {
    /// `AppContracts.AppConsole named "Mock"`.
    public let key: String
    /// Where it was registered (`file:line in plugin P`).
    public let site: String
    /// The profiles its tag names.
    public let profiles: String
    /// The registration it replaces, when it takes part and another
    /// registration of the same key is thereby left unused.
    public let replaces: String?
  }

  public let name: String
  /// "manifest", "environment" or "option".
  public let source: ProfileSource
  /// `activeProfile in the manifest`, `PLUGBOARD_PROFILE`, `--profile`.
  public let chosenBy: String
  public let manifestDefault: String?
  public let description: String?
  public let pluginsLeftOut: [LeftOutPlugin]
  public let servicesSwitched: [SwitchedService]
  /// Tagged for other profiles, so not taking part.
  public let registrationsLeftOut: [TaggedRegistration]
  /// Tagged for this profile and replacing an untagged registration.
  public let registrationsSwitched: [TaggedRegistration]
}

extension ProfileEffects {
  /// The effects of `deployment`'s profile, or nil when it has none.
  public init?(_ deployment: Deployment) {
    guard let profile = deployment.profile else { return nil }
    let container = deployment.container
    let active = container.registrations
    self.init(
      name: profile.name, source: profile.source, chosenBy: profile.source.label,
      manifestDefault: profile.manifestDefault, description: profile.declaration.description,
      pluginsLeftOut: deployment.excludedByProfile.map { entry in
        LeftOutPlugin(name: entry.name, loadsIn: entry.profiles?.description ?? "every profile")
      },
      servicesSwitched: container.selections.map { SwitchedService(type: $0.service.name, name: $0.name) },
      registrationsLeftOut: container.inactiveRegistrations.map { info in
        TaggedRegistration(
          key: info.key.description, site: info.site.description,
          profiles: info.profiles?.description ?? "", replaces: nil)
      },
      registrationsSwitched: container.duplicateRegistrations.compactMap { duplicate in
        guard
          let winner = active.first(where: { $0.key == duplicate.key && $0.site == duplicate.winner }),
          let profiles = winner.profiles
        else { return nil }
        return TaggedRegistration(
          key: duplicate.key.description, site: duplicate.winner.description,
          profiles: profiles.description, replaces: duplicate.replaced.description)
      })
  }
}
