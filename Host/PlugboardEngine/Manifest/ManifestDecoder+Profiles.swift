import PlugboardKit

/// Decoding of the profile keys: the top-level `profiles` and
/// `activeProfile`, and each plugin's `profiles` list. Every profile name
/// used anywhere must be declared, so a typo is an error with a
/// did-you-mean rather than a profile that silently never matches.
extension ManifestDecoder {
  static let profileKeys = ["description", "services", "contributions", "decorators", "config"]
  static let profile = AllowedKeys(profileKeys)

  /// The `profiles` object's members, each a declared profile.
  mutating func declarations(_ node: Int?) -> [ProfileDeclaration] {
    guard let node else { return [] }
    let tape = self.tape
    let path = ManifestPath.root.key("profiles")
    var declarations: [ProfileDeclaration] = []
    for (key, body) in orderedMembers(node, at: path) {
      let name = tape.text(key)
      guard validProfileName(name, at: path.key(name)) else { continue }
      profileNames.append(name)
      declaredProfileNames.insert(name)
      if let declaration = declaration(name, body, at: path.key(name)) {
        declarations.append(declaration)
      }
    }
    return declarations
  }

  private mutating func validProfileName(_ name: String, at path: ManifestPath) -> Bool {
    if name.isEmpty {
      report(path, "a profile name must not be empty")
      return false
    }
    if name.hasPrefix("!") {
      report(path, "a profile name cannot start with \"!\", which means \"every profile but\"")
      return false
    }
    return true
  }

  private mutating func declaration(_ name: String, _ node: Int, at path: ManifestPath)
    -> ProfileDeclaration?
  {
    let tape = self.tape
    guard let members = object(node, at: path, allowed: Self.profile, reserved: [:]) else {
      return nil
    }
    var description: String?
    if let value = members["description"] {
      if case .string(let text) = value {
        description = text
      } else {
        report(path.key("description"), "expected a string, found \(value.kindDescription)")
      }
    }
    var services: [ServiceChoice] = []
    if let value = members.node("services") {
      let servicesPath = path.key("services")
      for (key, choice) in orderedMembers(value, at: servicesPath) {
        let type = tape.text(key)
        let place = servicesPath.key(type)
        guard tape.kind(choice) == .string else {
          report(
            place,
            "expected a string (the registration name that serves \(type)), found \(tape.kindDescription(choice))"
          )
          continue
        }
        let registration = tape.text(choice)
        guard !type.isEmpty, !registration.isEmpty else {
          report(place, "expected a service type and a registration name, both non-empty")
          continue
        }
        services.append(ServiceChoice(type: type, name: registration, path: place))
      }
    }
    if let value = members.node("config") {
      profileConfig(value, of: name, at: path.key("config"))
    }
    var declaration = ProfileDeclaration(name: name, description: description, services: services)
    if let value = members.node("contributions") {
      declaration.contributions = contributionRules(value, at: path.key("contributions"))
    }
    if let value = members.node("decorators") {
      declaration.decorators = contributionRules(value, at: path.key("decorators"), subject: .decorators)
    }
    return declaration
  }

  /// `activeProfile`: a declared profile, required as soon as any is
  /// declared, so that which profile is active is never a guess.
  mutating func defaultProfile(_ value: JSONValue?) -> String? {
    let path = ManifestPath.root.key("activeProfile")
    guard let value else {
      if !profileNames.isEmpty {
        report(ManifestPath.root) {
          "missing required key \"activeProfile\" (the profile used when neither --profile nor "
            + "PLUGBOARD_PROFILE chooses one; declared: \($0.declaredList))"
        }
      }
      return nil
    }
    guard case .string(let name) = value else {
      report(path, "expected a string, found \(value.kindDescription)")
      return nil
    }
    guard requireDeclared(name, at: path) else { return nil }
    return name
  }

  /// A plugin's `profiles`: a non-empty array of declared profile names,
  /// each possibly negated with `!`, that are alternatives: the plugin
  /// loads when any one matches (as Spring's `@Profile` reads a list). A
  /// list that repeats itself, or that matches every declared profile or
  /// none, says something other than what its author meant, and is refused.
  mutating func pluginProfiles(_ value: JSONValue, at path: ManifestPath) -> ProfileCondition? {
    guard case .array(let elements) = value else {
      report(path, "expected an array of profile names, found \(value.kindDescription)")
      return nil
    }
    guard !elements.isEmpty else {
      report(path, "expected at least one profile; omit the key to load the plugin in every profile")
      return nil
    }
    var expressions: [String] = []
    for (index, element) in elements.enumerated() {
      let place = path.index(index)
      guard case .string(let expression) = element else {
        report(place, "expected a string, found \(element.kindDescription)")
        continue
      }
      let name = expression.hasPrefix("!") ? String(expression.dropFirst()) : expression
      if requireDeclared(name, at: place) { expressions.append(expression) }
    }
    guard expressions.count == elements.count, conditionSaysWhatItMeans(expressions, at: path) else {
      return nil
    }
    return ProfileCondition(expressions)
  }

  private mutating func requireDeclared(_ name: String, at path: ManifestPath) -> Bool {
    guard declaredProfileNames.contains(name) else {
      report(path) { ProfileSuggestion.notDeclared(name, among: $0.profileNames) }
      return false
    }
    return true
  }

  /// An object's members (keys and values on the tape) in written order,
  /// after reporting a non-object and duplicate keys; for objects whose
  /// keys are names, not a schema. See ``distinctMembers(_:at:)``.
  mutating func orderedMembers(_ node: Int, at path: ManifestPath) -> [(key: Int, value: Int)] {
    Array(distinctMembers(node, at: path))
  }

  /// An object's members in written order with the repeated keys left
  /// out, after reporting a non-object and each repeat; read from the
  /// tape, not copied: a profile's `config` may hold a quarter of a
  /// million, and an array of them touched megabytes of fresh pages.
  /// Keys are compared as `String`s (which are equal when
  /// canonically equivalent) unless every key is ASCII, where bytes tell
  /// the same and no `String` is made.
  mutating func distinctMembers(_ node: Int, at path: ManifestPath) -> DistinctMembers {
    let tape = self.tape
    guard tape.kind(node) == .object else {
      report(path, "expected an object, found \(tape.kindDescription(node))")
      return DistinctMembers(members: tape.members(node), repeated: [])
    }
    let count = tape.count(node)
    var repeated: [Bool] = []
    func reportRepeat(_ ordinal: Int, key: Int) {
      if repeated.isEmpty { repeated = [Bool](repeating: false, count: count) }
      repeated[ordinal] = true
      report(path.key(tape.text(key)), "duplicate key; each key may appear once")
    }
    guard tape.isASCII(node) else {
      var seen = Set<String>(minimumCapacity: count)
      for (ordinal, member) in tape.members(node).enumerated()
      where !seen.insert(tape.text(member.key)).inserted {
        reportRepeat(ordinal, key: member.key)
      }
      return DistinctMembers(members: tape.members(node), repeated: repeated)
    }
    // Sized for the distinct keys, which a million copies of one key are
    // not: the set grows with what it holds.
    var seen = ByteTextSet(capacity: min(count, ByteTextSet.partitionThreshold))
    for (ordinal, member) in tape.members(node).enumerated() {
      guard tape.withText(member.key, { seen.insert($0) }) else {
        reportRepeat(ordinal, key: member.key)
        continue
      }
      guard seen.count > ByteTextSet.partitionThreshold else { continue }
      // Thousands of distinct keys: one table for them all would miss the
      // cache on nearly every insert; the rest are found by partition
      // (`ByteTextSet.repeats`), which agrees on these. A key's index
      // is kept in four bytes (its value's is the next).
      var keys = [UInt32]()
      keys.reserveCapacity(count)
      for member in tape.members(node) { keys.append(UInt32(truncatingIfNeeded: member.key)) }
      // Every repeat, those reported above included: the later ones are
      // reported against it, which marks them already.
      repeated = tape.withTexts { texts in ByteTextSet.repeats(count: count) { texts[Int(keys[$0])] } }
      for later in (ordinal + 1)..<count where repeated[later] { reportRepeat(later, key: Int(keys[later])) }
      return DistinctMembers(members: tape.members(node), repeated: repeated)
    }
    return DistinctMembers(members: tape.members(node), repeated: repeated)
  }
}
