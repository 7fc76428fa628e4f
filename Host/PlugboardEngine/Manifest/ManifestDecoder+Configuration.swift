import PlugboardKit

/// Decoding of plugin configuration: a plugin's `config` object and a
/// profile's `config` (plugin name → settings). Values are scalars; which
/// settings exist and their types are the plugin's to declare, so they are
/// checked later, by `plugboard check` and at bring-up.
extension ManifestDecoder {
  /// Most settings one `config` object may give, and longest name and
  /// value: a manifest is hostile input, and no plugin needs more.
  static let settingLimit = 256
  static let settingNameLimit = 128
  static let settingValueLimit = 65_536

  /// A `config` object: setting name → string, number or boolean.
  /// The path is built only where there is something to say about it:
  /// a profile's `config` may hold a quarter of a million of these.
  mutating func settings(_ node: Int, at path: @autoclosure () -> ManifestPath)
    -> [String: SettingValue]
  {
    // Read in place: a copy of the tape costs three retains, once per
    // plugin a profile's `config` names.
    if self.tape.isEmptyObject(node) { return [:] }
    let tape = self.tape
    let path = path()
    let members = orderedMembers(node, at: path)
    if members.count > Self.settingLimit {
      report(path, "gives \(members.count) settings; at most \(Self.settingLimit) are allowed")
      return [:]
    }
    var result: [String: SettingValue] = [:]
    for (key, member) in members {
      let name = tape.text(key)
      let place = path.key(name)
      guard !name.isEmpty, name.utf8.count <= Self.settingNameLimit else {
        report(place, "a setting name must be 1 to \(Self.settingNameLimit) bytes long")
        continue
      }
      switch tape.kind(member) {
      case .string:
        let text = tape.text(member)
        if text.utf8.count > Self.settingValueLimit {
          report(
            place, "the value is \(text.utf8.count) bytes long; at most \(Self.settingValueLimit) are allowed"
          )
        } else {
          result[name] = .string(text)
        }
      case .number: result[name] = .number(tape.text(member))
      case .true: result[name] = .bool(true)
      case .false: result[name] = .bool(false)
      case .null, .array, .object:
        report(place, "expected a string, number or boolean, found \(tape.kindDescription(member))")
      }
    }
    return result
  }

  /// A profile's `config`: plugin name → its `config` object, kept by
  /// profile in written order for ``rejectUnknownConfiguredPlugins(_:)``,
  /// which fills in the profile's ``ProfileDeclaration/config`` once the
  /// plugins are known: a name is made a `String` only for a listed
  /// plugin or a listed problem.
  mutating func profileConfig(_ node: Int, of profile: String, at path: ManifestPath) {
    let tape = self.tape
    var configured = ConfiguredPlugins(members: distinctMembers(node, at: path))
    // An empty object gives nothing to check: skipped here, it does not
    // cost a call whose path argument retains the path and the tape.
    for (position, member) in configured.members.enumerated() where !tape.isEmptyObject(member.value) {
      let settings = settings(member.value, at: path.key(tape.text(member.key)))
      if !settings.isEmpty { configured.settings[position] = settings }
    }
    configuredPlugins[profile] = configured
  }

  /// A profile's `config` may only name plugins the manifest lists. In
  /// written order: sorting a quarter of a million names took longer than
  /// reading them. Fills in each profile's `config` first (every name when
  /// all are listed, as a decoded manifest has; otherwise the listed ones
  /// and, when there are few unknown ones, those too, which a rename's
  /// did-you-mean reads).
  ///
  /// An unknown name past the listed problems is only counted: nothing is
  /// kept of it (a quarter of a million names kept cost more than reading
  /// them did).
  mutating func rejectUnknownConfiguredPlugins(_ plugins: [PluginEntry]) {
    let names = plugins.map(\.name)
    let known = KnownNames(names)
    var unknownByProfile: [UnknownPlugins] = []
    for index in profiles.indices {
      let (config, unknown) = knownConfig(of: profiles[index].name, known: known)
      profiles[index].config = config
      unknownByProfile.append(unknown)
    }
    // Gathered once, and only when some name is unknown: the settings each
    // listed plugin is given anywhere, for a rename's did-you-mean.
    var given: [String: Set<String>]?
    for (profile, unknown) in zip(profiles, unknownByProfile) where unknown.count > 0 {
      let settings = given ?? settingsGiven(to: plugins)
      given = settings
      reportUnknown(unknown, in: profile, among: names, given: settings)
    }
  }

  /// Per profile: how many names are unknown, and the first of them (one
  /// more than can be listed, to tell "few" from "many"): their keys on
  /// the tape and their places in the profile's `config`.
  private typealias UnknownPlugins = (count: Int, first: [(position: Int, key: Int)])

  /// The settings `profile`'s `config` gives the plugins the manifest
  /// lists, and the names it gives that none is called. When they are
  /// few, the unknown names' settings are kept too: a report lists them.
  private func knownConfig(of profile: String, known: KnownNames) -> (
    config: [String: [String: SettingValue]], unknown: UnknownPlugins
  ) {
    let listable = ListedProblems<String>.limit
    var unknown: UnknownPlugins = (count: 0, first: [])
    // Not reserved for every name: when most are unknown (a quarter of a
    // million, say) it would stay nearly empty.
    var config: [String: [String: SettingValue]] = [:]
    guard let configured = configuredPlugins[profile] else { return (config, unknown) }
    for (position, member) in configured.members.enumerated() {
      if known.contains(member.key, on: tape) {
        config[tape.text(member.key)] = configured.settings[position] ?? [:]
      } else {
        unknown.count += 1
        if unknown.first.count <= listable { unknown.first.append((position, member.key)) }
      }
    }
    if unknown.count <= listable {
      for (position, key) in unknown.first {
        config[tape.text(key)] = configured.settings[position] ?? [:]
      }
    }
    return (config, unknown)
  }

  /// Reports the names `profile`'s `config` gives that no plugin is
  /// called (the listed plugins are `names`), each with a guess at the one
  /// meant, and counts those past the listed problems.
  private mutating func reportUnknown(
    _ unknown: UnknownPlugins, in profile: ProfileDeclaration, among names: [String],
    given settings: [String: Set<String>]
  ) {
    let tape = self.tape
    // Each guess compares every other unknown name: past a report's
    // worth of them, a guess is not worth a quadratic cost.
    let unknownNames =
      unknown.count <= ListedProblems<String>.limit ? unknown.first.map { tape.text($0.key) } : nil
    var reported = 0
    for (_, key) in unknown.first where problems.hasRoom {
      let plugin = tape.text(key)
      report(profile.path.key("config").key(plugin)) { _ in
        let suggestion =
          KeySuggestion.closest(to: plugin, among: names)
          ?? unknownNames.flatMap { Self.renamed(plugin, in: profile, given: settings, unknown: $0) }
        return
          "no plugin is called \"\(plugin)\"\(suggestion.map { "; did you mean \"\($0)\"?" } ?? " in plugins")"
      }
      reported += 1
    }
    problems.countUnlisted(unknown.count - reported)
  }

  /// Per listed plugin, the settings its entry's `config` and every
  /// profile's `config` give it.
  private func settingsGiven(to plugins: [PluginEntry]) -> [String: Set<String>] {
    var given: [String: Set<String>] = [:]
    for entry in plugins { given[entry.name, default: []].formUnion(entry.config.keys) }
    for profile in profiles {
      for (plugin, settings) in profile.config where given[plugin] != nil {
        given[plugin, default: []].formUnion(settings.keys)
      }
    }
    return given
  }

  /// The plugin a profile's `config` names by an old name: the one listed
  /// plugin that the same profile does not configure, that no other
  /// unknown name of it is a typo of, and that is given one of the same
  /// settings elsewhere. A rename is rarely a typo, so the name alone
  /// cannot tell.
  private static func renamed(
    _ plugin: String, in profile: ProfileDeclaration, given: [String: Set<String>], unknown: [String]
  ) -> String? {
    guard let settings = profile.config[plugin]?.keys, !settings.isEmpty else { return nil }
    let candidates = given.filter { name, known in
      profile.config[name] == nil && settings.contains(where: known.contains)
    }
    guard candidates.count == 1, let candidate = candidates.first?.key else { return nil }
    let typoOfOther = unknown.contains {
      $0 != plugin && KeySuggestion.closest(to: $0, among: [candidate]) != nil
    }
    return typoOfOther ? nil : candidate
  }
}

/// The plugins one profile's `config` names, as read: their keys and
/// values on the tape in written order, repeats left out, and the
/// settings of those that give any, by position. Nothing per name is
/// allocated: a `config` may name a quarter of a million.
struct ConfiguredPlugins {
  var members: DistinctMembers
  var settings: [Int: [String: SettingValue]] = [:]
}
