import PlugboardKit

/// Applies the manifest's `contributions` rules (top level, then the
/// active profile's, which replace the top level's for their extension
/// points) to an assembled container: each contribution a rule leaves out
/// is excluded (``Container/excludeContributions(_:)``, once for all), so that
/// `resolveAll`, `list` and `check` no longer count it, and says why.
///
/// Like ``ServiceSelector``, every rule is checked when the deployment
/// comes up: an extension point nothing contributes to or declares, a bare
/// name that fits two, a type given two rules under two spellings, and a
/// selector that matches no contribution are problems of the deployment,
/// reported at their place in the manifest with a did-you-mean.
///
/// Two exceptions, where the manifest may well be right: while a plugin
/// has failed (it may be the one contributing), nothing unknown is
/// reported; and a `Plugin.name` or `Plugin.*` selector naming a plugin
/// the profile does not load matches nothing, silently. A bare name
/// contributed only by such a plugin is unknown in that profile: write it
/// with its plugin.
enum ContributionFilter {
  /// - Parameters:
  ///   - profile: the active profile, whose rules replace the top level's.
  ///   - failedPlugins: the plugins that failed to load or assemble.
  ///   - notLoaded: the manifest's plugins left out of this bring-up.
  ///   - subject: contributions, or decorators (`"decorators"`, of the
  ///     same shape, applied the same way).
  static func apply(
    _ rules: [ContributionRule], profile: ProfileDeclaration?, to container: Container, manifest: String,
    failedPlugins: [String] = [], notLoaded: Set<String> = [], subject: RuleSubject = .contributions
  ) -> [DeploymentProblem] {
    let profiled = subject.rules(of: profile)
    guard !rules.isEmpty || !profiled.isEmpty else { return [] }
    var pass = Pass(
      points: ExtensionPoints(container, subject: subject), problems: ProfileProblems(manifest: manifest),
      tolerant: !failedPlugins.isEmpty, notLoaded: notLoaded, subject: subject)
    let effective = pass.effectiveRules([rules, profiled])
    let exclusions = pass.exclusions(effective)
    switch subject {
    case .contributions: container.excludeContributions(exclusions)
    case .decorators: container.excludeDecorators(exclusions)
    }
    return pass.problems.report(summarizedAt: subject.block)
  }

  /// One application of the rules: what they apply to, and the problems
  /// found on the way.
  private struct Pass {
    let points: ExtensionPoints
    var problems: ProfileProblems
    /// While a plugin has failed, nothing unknown is reported.
    let tolerant: Bool
    let notLoaded: Set<String>
    let subject: RuleSubject

    /// Each list's rules by type, a later list's replacing an earlier's,
    /// in the order their types first appear; a rule naming no extension
    /// point, or several, or a type that already has one in its list, is
    /// a problem and left out.
    mutating func effectiveRules(_ lists: [[ContributionRule]]) -> [(TypeIdentity, ContributionRule)] {
      var effective: [TypeIdentity: ContributionRule] = [:]
      var order: [TypeIdentity] = []
      for list in lists {
        var seen: [TypeIdentity: ContributionRule] = [:]
        for rule in list {
          guard let type = type(of: rule) else { continue }
          if let earlier = seen[type] {
            problems.append(
              at: rule.path,
              "\(type.name) already has a rule at \(earlier.path); write one rule per \(subject.group)")
            continue
          }
          seen[type] = rule
          if effective.updateValue(rule, forKey: type) == nil { order.append(type) }
        }
      }
      return order.compactMap { type in effective[type].map { (type, $0) } }
    }

    /// The one extension point `rule` names, or nil with the problem said.
    private mutating func type(of rule: ContributionRule) -> TypeIdentity? {
      let matches = points.types(named: rule.extensionPoint)
      guard let type = matches.first else {
        if !tolerant {
          problems.append(
            at: rule.path,
            ContributionFilter.unknownPoint(rule.extensionPoint, among: points.types, subject: subject))
        }
        return nil
      }
      guard matches.count == 1 else {
        problems.append(
          at: rule.path,
          "\"\(rule.extensionPoint)\" matches several \(subject.group)s "
            + "(\(matches.map(\.name).sorted().joined(separator: ", "))); write the qualified name")
        return nil
      }
      return type
    }

    /// The contributions each rule leaves out, with why; a selector that
    /// matches none of its extension point's contributions is a problem.
    mutating func exclusions(_ rules: [(TypeIdentity, ContributionRule)]) -> [ServiceKey: String] {
      var exclusions: [ServiceKey: String] = [:]
      for (type, rule) in rules {
        let contributions = points.contributions[type] ?? []
        for selector in (rule.include ?? []) + rule.exclude
        where !contributions.contains(where: { selector.matches(name: $0.name, plugin: $0.plugin) }) {
          if tolerant || selector.pluginPart.map(notLoaded.contains) == true { continue }
          problems.append(
            at: selector.path,
            ContributionFilter.unknownSelector(
              selector.text, of: type, among: contributions, subject: subject))
        }
        for contribution in contributions where contribution.isActive {
          let (name, plugin) = (contribution.name, contribution.plugin)
          if let include = rule.include, !include.contains(where: { $0.matches(name: name, plugin: plugin) })
          {
            exclusions[contribution.key] = "not listed in \(rule.path.key("include"))"
          } else if let selector = rule.exclude.first(where: { $0.matches(name: name, plugin: plugin) }) {
            exclusions[contribution.key] = "excluded by \(selector.path)"
          }
        }
      }
      return exclusions
    }
  }

  /// One contribution, active or not, as a selector sees it.
  struct Contribution {
    let key: ServiceKey
    let name: String?
    let plugin: String?
    let isActive: Bool

    /// The ways a selector can name it, for a did-you-mean.
    var spellings: [String] {
      var spellings: [String] = []
      if let name { spellings.append(name) }
      if let plugin {
        if let name { spellings.append("\(plugin).\(name)") }
        spellings.append("\(plugin).*")
      }
      return spellings
    }
  }

  /// The container's extension points (contracts with contributions, and
  /// declared ones), indexed once: by qualified and bare name, each with
  /// its contributions in registration order.
  private struct ExtensionPoints {
    var types: [TypeIdentity] = []
    var byName: [String: [TypeIdentity]] = [:]
    var contributions: [TypeIdentity: [Contribution]] = [:]

    init(_ container: Container, subject: RuleSubject) {
      var known: Set<TypeIdentity> = []
      func add(_ type: TypeIdentity) {
        guard known.insert(type).inserted else { return }
        types.append(type)
        byName[type.name, default: []].append(type)
        if type.shortName != type.name { byName[type.shortName, default: []].append(type) }
      }
      let active = container.registrations.map { ($0, true) }
      let inactive = container.inactiveRegistrations.map { ($0, false) }
      for (info, isActive) in active + inactive {
        let found: (group: TypeIdentity, name: String?)?
        switch subject {
        case .contributions: found = container.contribution(of: info.key).map { ($0.contract, $0.name) }
        case .decorators: found = container.decorator(of: info.key).map { ($0.target.service, $0.name) }
        }
        guard let found else { continue }
        add(found.group)
        contributions[found.group, default: []].append(
          Contribution(key: info.key, name: found.name, plugin: info.site.plugin, isActive: isActive))
      }
      guard subject == .contributions else { return }
      for declaration in container.extensionPoints { add(declaration.contract) }
    }

    func types(named written: String) -> [TypeIdentity] { byName[written] ?? [] }
  }

  /// A name from the manifest or a plugin, as a message may print it.
  private static func shown(_ text: String) -> String { Excerpt.of(Terminal.sanitize(text)) }

  private static func unknownPoint(_ written: String, among types: [TypeIdentity], subject: RuleSubject)
    -> String
  {
    let head =
      subject == .contributions
      ? "no plugin contributes to or declares an extension point called \"\(shown(written))\""
      : "no plugin decorates a service called \"\(shown(written))\""
    let candidates = written.contains(".") ? types.map(\.name) : types.map(\.shortName)
    if let close = KeySuggestion.closest(to: written, among: candidates) {
      return head + "; did you mean \"\(shown(close))\"?"
    }
    guard !types.isEmpty else { return head }
    return head + "; \(subject.group)s: " + types.map(\.name).joined(separator: ", ")
  }

  private static func unknownSelector(
    _ written: String, of type: TypeIdentity, among contributions: [Contribution], subject: RuleSubject
  )
    -> String
  {
    let head = "no \(subject.item) \(subject.preposition) \(type.name) is called \"\(shown(written))\""
    if let close = KeySuggestion.closest(to: written, among: contributions.flatMap(\.spellings)) {
      return head + "; did you mean \"\(shown(close))\"?"
    }
    guard !contributions.isEmpty else { return head + "; it has no \(subject.block)" }
    let listed = contributions.map { contribution in
      let name = contribution.name.map { "\"\(shown($0))\"" } ?? "an unnamed one"
      return contribution.plugin.map { "\(name) (\($0))" } ?? name
    }
    return head + "; its \(subject.block): " + listed.joined(separator: ", ")
  }
}
