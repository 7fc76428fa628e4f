import PlugboardKit

/// What the active profile did to a deployment, as data: what chose it,
/// the plugins it left out, the services it switched to a named
/// registration, and the registrations its tags left out or let replace
/// another. `list` prints it and includes it in `--json`.
package struct ProfileEffects: Encodable, Sendable {
  package struct LeftOutPlugin: Encodable, Sendable {
    package let name: String
    /// `'mock'`, `every profile but 'live'`.
    package let loadsIn: String
  }

  package struct SwitchedService: Encodable, Sendable {
    /// The fully qualified service type.
    package let type: String
    /// The registration name that serves its unnamed requests.
    package let name: String
  }

  package struct TaggedRegistration: Encodable, Sendable {
    /// `AppContracts.AppConsole named "Mock"`.
    package let key: String
    /// Where it was registered (`file:line in plugin P`).
    package let site: String
    /// The profiles its tag names.
    package let profiles: String
    /// The registration it replaces, when it takes part and another
    /// registration of the same key is thereby left unused.
    package let replaces: String?
  }

  package let name: String
  /// "manifest", "environment" or "option".
  package let source: ProfileSource
  /// `activeProfile in the manifest`, `PLUGBOARD_PROFILE`, `--profile`.
  package let chosenBy: String
  package let manifestDefault: String?
  package let description: String?
  package let pluginsLeftOut: [LeftOutPlugin]
  package let servicesSwitched: [SwitchedService]
  /// Tagged for other profiles, so not taking part.
  package let registrationsLeftOut: [TaggedRegistration]
  /// Tagged for this profile and replacing an untagged registration.
  package let registrationsSwitched: [TaggedRegistration]
}

extension ProfileEffects {
  /// The effects of `deployment`'s profile, or nil when it has none.
  package init?(_ deployment: Deployment) {
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
      // A contribution the manifest's rules left out is listed with its
      // extension point, not as tagged for other profiles.
      registrationsLeftOut: container.inactiveRegistrations.filter { $0.exclusion == nil }.map { info in
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
