import PlugboardKit

/// Applies a profile's per-service choices to an assembled container:
/// each `"Type": "Name"` is matched against the service types the plugins
/// registered, by fully qualified or bare name, and the match is passed to
/// ``Container/select(name:for:reason:)``.
///
/// Every choice is checked when the deployment comes up, not when the
/// service is first resolved: a type that no plugin registers, a bare name
/// that fits two types, a registration name the type does not have or has
/// only for other profiles, or a type chosen twice under two spellings is
/// a problem of the deployment, reported at its place in the manifest.
///
/// Except a type nothing registers while a plugin has failed: the failed
/// plugin, already reported, may well be the one registering it, and the
/// manifest is not to blame for it. The choice is then left unmade, and
/// checked again once the plugin loads.
enum ServiceSelector {
  /// - Parameter failedPlugins: the plugins that failed to load or
  ///   assemble in this bring-up.
  ///
  /// Linear in the registrations and the choices: the registered types are
  /// indexed by name once, not searched per choice. Past
  /// ``ListedProblems/limit`` problems, a problem is counted and its
  /// message (a did-you-mean over every registered type) never built.
  static func apply(
    _ profile: ProfileDeclaration, to container: Container, manifest: String, failedPlugins: [String] = []
  ) -> [DeploymentProblem] {
    // Most profiles choose no service: indexing every registered type
    // (its name demangled twice) was a tenth of bring-up's own work.
    guard !profile.services.isEmpty else { return [] }
    let registered = RegisteredServices(container)
    var chosen: [TypeIdentity: ServiceChoice] = [:]
    var problems = ProfileProblems(manifest: manifest)
    for choice in profile.services {
      let matches = registered.types(named: choice.type)
      guard let type = matches.first else {
        if failedPlugins.isEmpty {
          problems.append(at: choice.path, unknownType(choice.type, among: registered.types))
        }
        continue
      }
      guard matches.count == 1 else {
        problems.append(
          at: choice.path,
          "\"\(choice.type)\" matches several registered service types "
            + "(\(matches.map(\.name).sorted().joined(separator: ", "))); write the qualified name")
        continue
      }
      if let earlier = chosen[type] {
        problems.append(
          at: choice.path, "\(type.name) is already chosen by \(earlier.path); choose each service once")
        continue
      }
      chosen[type] = choice
      let names = registered.activeNames[type] ?? []
      guard names.contains(choice.name) else {
        if let elsewhere = registered.inactive[type]?[choice.name] {
          problems.append(at: choice.path, inactiveName(elsewhere, profile: profile.name))
        } else {
          problems.append(
            at: choice.path, unknownName(choice.name, of: type, among: names, profile: profile.name))
        }
        continue
      }
      container.select(name: choice.name, for: type, reason: "chosen by profile '\(profile.name)'")
    }
    return problems.report(summarizedAt: "profiles.\(Excerpt.of(profile.name)).services")
  }

  /// The container's service types, indexed once for every choice to look
  /// up: by qualified and by bare name, with the names each type's active
  /// registrations (without arguments) go by, and its inactive ones.
  private struct RegisteredServices {
    /// Every type, active or not, in the order first registered.
    var types: [TypeIdentity] = []
    /// Qualified and bare name → the types so called, in ``types``' order.
    var byName: [String: [TypeIdentity]] = [:]
    var activeNames: [TypeIdentity: [String?]] = [:]
    /// The first inactive registration of each type and name.
    var inactive: [TypeIdentity: [String?: RegistrationInfo]] = [:]

    init(_ container: Container) {
      // Inactive registrations count towards the types, so that a choice
      // naming one is told it is inactive rather than unknown.
      let active = container.registrations
      let inactiveInfos = container.inactiveRegistrations
      var known: Set<TypeIdentity> = []
      for info in active + inactiveInfos where known.insert(info.key.service).inserted {
        let type = info.key.service
        types.append(type)
        let name = type.name
        byName[name, default: []].append(type)
        let shortName = type.shortName
        if shortName != name { byName[shortName, default: []].append(type) }
      }
      for info in active where info.key.arguments.isEmpty {
        activeNames[info.key.service, default: []].append(info.key.name)
      }
      for info in inactiveInfos
      where info.key.arguments.isEmpty && inactive[info.key.service]?[info.key.name] == nil {
        inactive[info.key.service, default: [:]][info.key.name] = info
      }
    }

    func types(named written: String) -> [TypeIdentity] { byName[written] ?? [] }
  }

  /// The choice names a registration tagged for other profiles: without
  /// this, the choice would be made and every unnamed request would then
  /// fail as if nothing registered the service.
  private static func inactiveName(_ info: RegistrationInfo, profile: String) -> String {
    let serves = info.profiles.map { " (it serves \($0))" } ?? ""
    return
      "\(info.key.service.name)'s registration named \"\(info.key.name ?? "")\" at \(info.site) does not take "
      + "part in profile '\(profile)'\(serves); choose a registration of this profile, or tag that one for it"
  }

  private static func unknownType(_ written: String, among types: [TypeIdentity]) -> String {
    let head = "no plugin registers a service type called \"\(written)\""
    let candidates = written.contains(".") ? types.map(\.name) : types.map(\.shortName)
    if let close = KeySuggestion.closest(to: written, among: candidates) {
      return head + "; did you mean \"\(close)\"?"
    }
    return head
  }

  private static func unknownName(
    _ name: String, of type: TypeIdentity, among names: [String?], profile: String
  )
    -> String
  {
    let head = "\(type.name) has no registration named \"\(name)\" to serve it in profile '\(profile)'"
    let named = names.compactMap { $0 }
    if let close = KeySuggestion.closest(to: name, among: named) {
      return head + "; did you mean \"\(close)\"?"
    }
    let listed = names.map { $0.map { "\"\($0)\"" } ?? "(unnamed)" }.joined(separator: ", ")
    return head + "; its registrations: " + listed
  }
}
