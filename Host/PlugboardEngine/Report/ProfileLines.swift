/// The profile section of `plugboard list`: which profile is active and
/// what chose it, then each thing the profile changed, one a line:
///
/// ```
/// Profile 'mock' (from --profile; the manifest's default is 'live'): fixture data, offline
///   plugin left out: Auth (loads in every profile but 'mock')
///   service switched: AppContracts.APIClient → its registration named "Mock"
///   registration switched: AppContracts.AppConsole at Shell/ShellAssembly.swift:12 in plugin Shell (for every profile but 'live') replaces …
/// ```
package enum ProfileLines {
  package static func lines(_ profile: ProfileEffects) -> [String] {
    var text = "Profile '\(profile.name)' (from \(profile.chosenBy)"
    if profile.source != .manifest, let manifestDefault = profile.manifestDefault,
      manifestDefault != profile.name
    {
      text += "; the manifest's default is '\(manifestDefault)'"
    }
    text += ")"
    if let description = profile.description, !description.isEmpty { text += ": \(description)" }
    var lines = [text]
    for plugin in profile.pluginsLeftOut {
      lines.append("  plugin left out: \(plugin.name) (loads in \(plugin.loadsIn))")
    }
    for service in profile.servicesSwitched {
      lines.append("  service switched: \(service.type) → its registration named \"\(service.name)\"")
    }
    for registration in profile.registrationsSwitched {
      lines.append(
        "  registration switched: \(registration.key) at \(registration.site) (for \(registration.profiles)) "
          + "replaces the one at \(registration.replaces ?? "?")")
    }
    for registration in profile.registrationsLeftOut {
      lines.append(
        "  registration left out: \(registration.key) at \(registration.site) (for \(registration.profiles))")
    }
    if lines.count == 1 { lines.append("  (changes nothing)") }
    return lines
  }
}
