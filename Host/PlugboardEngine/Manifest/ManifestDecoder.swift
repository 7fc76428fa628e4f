import PlugboardKit

/// Turns a parsed manifest into a ``Manifest``, collecting every problem
/// with its place rather than stopping at the first.
struct ManifestDecoder {
  /// Keys a later format will use. Naming them here gives a precise message
  /// instead of "unknown key" and keeps anyone from using them for
  /// something else meanwhile.
  static let reservedTopLevelKeys: [String: String] = [:]
  static let reservedPluginKeys: [String: String] = [:]
  static let topLevelKeys = [
    "$schema", "formatVersion", "activeProfile", "profiles", "requirePins", "pluginRoots", "stageTimeout",
    "plugins", "logLevel", "pluginFolders", "hookTimeout", "exitTimeout", "libraryPins", "contributions",
    "decorators", "trust",
  ]
  static let pluginKeys = ["name", "path", "enabled", "profiles", "sha256", "optional", "config", "trust"]
  static let topLevel = AllowedKeys(topLevelKeys)
  static let plugin = AllowedKeys(pluginKeys)

  /// The parsed manifest; the decoder reads it in place.
  let tape: JSONTape

  /// A decoder of `tape`; without one, of `null` (to test what reporting
  /// costs).
  init(tape: JSONTape = .null) {
    self.tape = tape
  }

  /// The first ``reportedProblemLimit`` problems, and how many more.
  var problems = ListedProblems<ManifestProblem>()
  /// The declared profiles, decoded before the plugins so that a plugin's
  /// `profiles` list can be checked against them.
  var profiles: [ProfileDeclaration] = []
  var activeProfile: String?
  /// Every well-formed key of `profiles`, even one whose body has problems,
  /// so those problems are not repeated as "not declared" wherever it is used.
  var profileNames: [String] = []
  /// The same names, to look one up in constant time: a manifest may
  /// declare and use tens of thousands.
  var declaredProfileNames: Set<String> = []
  /// The integrity and vetting settings; see ManifestDecoder+Integrity.
  var requirePins = false
  var pluginRoots: [String] = []
  var stageTimeout: Duration?
  var libraryPins: [LibraryPin] = []
  /// `logLevel`; see ManifestDecoder+Logging.
  var logLevel: LogLevel?
  /// `pluginFolders` and the name-only entries; see ManifestDecoder+Discovery.
  var pluginFolders: [String] = []
  /// Each drop-in folder's `trust`, by position; see ManifestDecoder+Trust.
  var pluginFolderTrust: [SignatureTrust?] = []
  /// The top-level `trust`.
  var trust: SignatureTrust?
  var discoveredSettings: [PluginEntry] = []
  /// The plugins each profile's `config` names (their keys on the tape),
  /// in written order, with their settings, by profile; see
  /// ManifestDecoder+Configuration.
  var configuredPlugins: [String: ConfiguredPlugins] = [:]
  var hookTimeout: Duration?
  var exitTimeout: Duration?
  /// The top-level `contributions`; see ManifestDecoder+Contributions.
  var contributions: [ContributionRule] = []
  /// The top-level `decorators`, of the same shape.
  var decorators: [ContributionRule] = []

  /// The manifest, or every problem found in it. Strings are looked at
  /// for control characters only when the parser saw one (see
  /// ``JSONTape/containsControlCharacter``).
  static func decode(_ tape: JSONTape, path: String) -> Result<Manifest, ManifestError> {
    var decoder = ManifestDecoder(tape: tape)
    if tape.containsControlCharacter {
      decoder.rejectControlCharacters(in: tape.value(at: tape.root), at: .root)
    }
    let plugins = decoder.document(tape.root)
    guard decoder.problems.isEmpty, let plugins else {
      var problems = decoder.problems.listed
      if let unlisted = decoder.problems.unlistedSummary {
        problems.append(ManifestProblem(at: .root, unlisted + "; fix these and read the manifest again"))
      }
      return .failure(.invalid(path: path, problems))
    }
    var manifest = Manifest(
      path: path, plugins: plugins, profiles: decoder.profiles, activeProfile: decoder.activeProfile,
      requirePins: decoder.requirePins, pluginRoots: decoder.pluginRoots, stageTimeout: decoder.stageTimeout,
      hookTimeout: decoder.hookTimeout
    )
    manifest.logLevel = decoder.logLevel
    manifest.exitTimeout = decoder.exitTimeout
    manifest.pluginFolders = decoder.pluginFolders
    manifest.pluginFolderTrust = decoder.pluginFolderTrust
    manifest.trust = decoder.trust
    manifest.discoveredSettings = decoder.discoveredSettings
    manifest.libraryPins = decoder.libraryPins
    manifest.contributions = decoder.contributions
    manifest.decorators = decoder.decorators
    return .success(manifest)
  }

  private mutating func document(_ node: Int) -> [PluginEntry]? {
    let tape = self.tape
    let root = ManifestPath.root
    guard let members = object(node, at: root, allowed: Self.topLevel, reserved: Self.reservedTopLevelKeys)
    else { return nil }
    switch members["$schema"] {
    case .none, .string?: break
    case let other?:
      report(
        root.key("$schema"),
        "expected a string (where editors find the schema), found \(other.kindDescription)")
    }
    formatVersion(members["formatVersion"], at: root.key("formatVersion"))
    profiles = declarations(members.node("profiles"))
    activeProfile = defaultProfile(members["activeProfile"])
    integritySettings(members)
    loggingSettings(members)
    (pluginFolders, pluginFolderTrust) = folders(members.node("pluginFolders"))
    trust = members.node("trust").flatMap { trustBlock($0, at: root.key("trust")) }
    if let node = members.node("contributions") {
      contributions = contributionRules(node, at: root.key("contributions"))
    }
    if let node = members.node("decorators") {
      decorators = contributionRules(node, at: root.key("decorators"), subject: .decorators)
    }
    guard let list = members.node("plugins") else {
      report(root, "missing required key \"plugins\"")
      return nil
    }
    guard tape.kind(list) == .array else {
      report(root.key("plugins"), "expected an array, found \(tape.kindDescription(list))")
      return nil
    }
    var plugins: [PluginEntry] = []
    for (index, element) in tape.elements(list).enumerated() {
      if let entry = plugin(element, index: index) { plugins.append(entry) }
    }
    rejectDuplicateNames(plugins + discoveredSettings)
    rejectUnknownConfiguredPlugins(plugins + discoveredSettings)
    return plugins
  }

  private mutating func formatVersion(_ value: JSONValue?, at path: ManifestPath) {
    let supported = Manifest.formatVersion
    guard let value else {
      report(
        ManifestPath.root, "missing required key \"formatVersion\" (this plugboard reads format \(supported))"
      )
      return
    }
    guard case .number(let text) = value else {
      report(path, "expected a number, found \(value.kindDescription)")
      return
    }
    if !ExactNumber(text).isExactly(supported) {
      report(path, "this plugboard reads format \(supported), found \(text)")
    }
  }

  private mutating func plugin(_ node: Int, index: Int) -> PluginEntry? {
    let path = ManifestPath.root.key("plugins").index(index)
    guard let members = object(node, at: path, allowed: Self.plugin, reserved: Self.reservedPluginKeys)
    else { return nil }
    let name = nonEmptyString(members["name"], key: "name", in: path)
    // With drop-in folders, an entry without a path gives a discovered
    // plugin's settings by name.
    let file =
      members.node("path") == nil && !pluginFolders.isEmpty
      ? "" : nonEmptyString(members["path"], key: "path", in: path)
    let optional = flag(members["optional"], at: path.key("optional"))
    var enabled = true
    if let value = members["enabled"] {
      if case .bool(let flag) = value {
        enabled = flag
      } else {
        report(path.key("enabled"), "expected a boolean, found \(value.kindDescription)")
      }
    }
    let profiles = members["profiles"].flatMap { pluginProfiles($0, at: path.key("profiles")) }
    let pin = members["sha256"].flatMap { digest($0, at: path.key("sha256")) }
    let config = members.node("config").map { settings($0, at: path.key("config")) } ?? [:]
    let trust = members.node("trust").flatMap { trustBlock($0, at: path.key("trust")) }
    guard let name, let file else { return nil }
    var entry = PluginEntry(
      index: index, name: name, path: file, enabled: enabled, profiles: profiles, sha256: pin)
    entry.optional = optional
    entry.config = config
    entry.trust = trust
    if file.isEmpty {
      discoveredSettings.append(entry)
      return nil
    }
    return entry
  }

  private mutating func rejectDuplicateNames(_ plugins: [PluginEntry]) {
    var first: [String: Int] = [:]
    for plugin in plugins {
      if let earlier = first[plugin.name] {
        report(
          ManifestPath.root.key("plugins").index(plugin.index).key("name"),
          "\"\(plugin.name)\" is already the name of plugins[\(earlier)]")
      } else {
        first[plugin.name] = plugin.index
      }
    }
  }

  // MARK: Shapes

  /// The allowed members of the object at `node`, after reporting a
  /// non-object, duplicate keys, and unknown or reserved keys. A key is
  /// made a `String` only for a message: most unknown keys differ in
  /// length from every allowed one, and a manifest may hold a quarter of
  /// a million of them.
  mutating func object(
    _ node: Int, at path: ManifestPath, allowed: AllowedKeys, reserved: [String: String]
  ) -> ManifestMembers? {
    let tape = self.tape
    guard tape.kind(node) == .object else {
      report(path, "expected an object, found \(tape.kindDescription(node))")
      return nil
    }
    var result = ManifestMembers(tape: tape, keys: allowed)
    for member in tape.members(node) {
      if !reserved.isEmpty, let feature = reserved[tape.text(member.key)] {
        report(
          path.key(tape.text(member.key)),
          "reserved for \(feature), which this version of plugboard does not support yet")
      } else if let position = allowed.position(of: member.key, on: tape) {
        if result.nodes[position] >= 0 {
          report(path.key(tape.text(member.key)), "duplicate key; each key may appear once")
        } else {
          result.nodes[position] = member.value
        }
      } else {
        report(
          path.key(tape.text(member.key)), Self.unknownKey(tape.text(member.key), allowed: allowed.names))
      }
    }
    return result
  }

  static func unknownKey(_ key: String, allowed: [String]) -> String {
    if let suggestion = KeySuggestion.closest(to: key, among: allowed) {
      return "unknown key; did you mean \"\(suggestion)\"?"
    }
    let list = allowed.map { "\"\($0)\"" }.joined(separator: ", ")
    return "unknown key; expected one of \(list)"
  }

  mutating func nonEmptyString(_ value: JSONValue?, key: String, in path: ManifestPath)
    -> String?
  {
    guard let value else {
      report(path, "missing required key \"\(key)\"")
      return nil
    }
    guard case .string(let text) = value else {
      report(path.key(key), "expected a string, found \(value.kindDescription)")
      return nil
    }
    guard !text.isEmpty else {
      report(path.key(key), "expected a non-empty string")
      return nil
    }
    return text
  }

  /// How many problems one manifest reports. Past it, a problem is only
  /// counted: its path and message (a did-you-mean over every declared
  /// name, say) are never built, so a manifest with a problem in each of
  /// 240,000 keys costs what 100 do, and its report stays readable.
  static var reportedProblemLimit: Int { ListedProblems<ManifestProblem>.limit }

  /// Records a problem at `path`. Both are evaluated only when the problem
  /// is listed: a call costs a counter increment past the limit, so a
  /// message may search, measure and quote as it needs.
  mutating func report(_ path: @autoclosure () -> ManifestPath, _ message: @autoclosure () -> String) {
    problems.append(ManifestProblem(at: path(), message()))
  }

  /// Records a problem at `path` whose message reads the decoder's state
  /// (the declared profile names, say), which an autoclosure passed to a
  /// mutating call cannot capture.
  mutating func report(_ path: @autoclosure () -> ManifestPath, describedBy describe: (Self) -> String) {
    let message = problems.hasRoom ? describe(self) : ""
    problems.append(ManifestProblem(at: path(), message))
  }
}
