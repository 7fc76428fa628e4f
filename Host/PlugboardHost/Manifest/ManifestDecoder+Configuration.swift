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
  mutating func settings(_ value: JSONValue, at path: @autoclosure () -> ManifestPath)
    -> [String: SettingValue]
  {
    if case .object(let members) = value, members.isEmpty { return [:] }
    let path = path()
    let members = orderedMembers(value, at: path)
    if members.count > Self.settingLimit {
      report(path, "gives \(members.count) settings; at most \(Self.settingLimit) are allowed")
      return [:]
    }
    var result: [String: SettingValue] = [:]
    for (name, member) in members {
      let place = path.key(name)
      guard !name.isEmpty, name.utf8.count <= Self.settingNameLimit else {
        report(place, "a setting name must be 1 to \(Self.settingNameLimit) bytes long")
        continue
      }
      switch member {
      case .string(let text) where text.utf8.count > Self.settingValueLimit:
        report(
          place, "the value is \(text.utf8.count) bytes long; at most \(Self.settingValueLimit) are allowed")
      case .string(let text): result[name] = .string(text)
      case .number(let text): result[name] = .number(text)
      case .bool(let flag): result[name] = .bool(flag)
      case .null, .array, .object:
        report(place, "expected a string, number or boolean, found \(member.kindDescription)")
      }
    }
    return result
  }

  /// A profile's `config`: plugin name → its `config` object. The names
  /// are kept in written order too, for ``rejectUnknownConfiguredPlugins(_:)``.
  mutating func profileConfig(_ value: JSONValue, of profile: String, at path: ManifestPath)
    -> [String: [String: SettingValue]]
  {
    let members = orderedMembers(value, at: path)
    var result = [String: [String: SettingValue]](minimumCapacity: members.count)
    var names: [String] = []
    names.reserveCapacity(members.count)
    for (plugin, body) in members {
      result[plugin] = settings(body, at: path.key(plugin))
      names.append(plugin)
    }
    configuredPlugins[profile] = names
    return result
  }

  /// A profile's `config` may only name plugins the manifest lists. In
  /// written order: sorting a quarter of a million names took longer than
  /// reading them.
  mutating func rejectUnknownConfiguredPlugins(_ plugins: [PluginEntry]) {
    let names = plugins.map(\.name)
    let known = Set(names)
    // Gathered once, and only when some name is unknown: the settings each
    // listed plugin is given anywhere, for a rename's did-you-mean.
    var given: [String: Set<String>]?
    for profile in profiles {
      let unknown = (configuredPlugins[profile.name] ?? []).filter { !known.contains($0) }
      guard !unknown.isEmpty else { continue }
      let settings = given ?? settingsGiven(to: plugins)
      given = settings
      for plugin in unknown {
        report(profile.path.key("config").key(plugin)) { _ in
          let suggestion =
            KeySuggestion.closest(to: plugin, among: names)
            ?? Self.renamed(plugin, in: profile, given: settings, unknown: unknown)
          return
            "no plugin is called \"\(plugin)\"\(suggestion.map { "; did you mean \"\($0)\"?" } ?? " in plugins")"
        }
      }
    }
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
    // Each guess compares every other unknown name: past a report's worth
    // of them, a guess is not worth a quadratic cost.
    guard unknown.count <= ListedProblems<String>.limit else { return nil }
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
