/// A registration that might be what a failed request meant.
public struct Suggestion: Sendable, Hashable, CustomStringConvertible {
  public enum Reason: Sendable, Hashable {
    /// The same service type, registered under another name.
    case otherName
    /// The same service type and name, taking other runtime arguments.
    case otherArguments
    /// A type with the same fully qualified name but another runtime
    /// identity: the module that defines it is loaded twice.
    case duplicatedModule
    /// A type whose name is close to the requested one (a typo, or the
    /// protocol versus its implementation).
    case similarName
  }

  public let reason: Reason
  public let key: ServiceKey
  public let site: RegistrationSite

  public var description: String {
    switch reason {
    case .otherName, .otherArguments, .similarName:
      return "\(key) (registered at \(site))"
    case .duplicatedModule:
      return "\(key) (registered at \(site)) has the same name but is another type: "
        + "module \(key.service.moduleName ?? "?") is loaded twice. Link it as a .dynamic "
        + "product of a separate package, depended on by path, so host and plugins share one copy"
    }
  }

  /// The action for a miss of `key` when one of `suggestions` is a type of
  /// the same name declared in another module: a contract a plugin
  /// declared itself instead of importing it from the shared package, so
  /// registering either copy again would not help. Nil otherwise.
  public static func declaredTwiceAction(for key: ServiceKey, among suggestions: [Suggestion]) -> String? {
    guard let wantedModule = key.service.moduleName else { return nil }
    let wantedName = key.service.name.dropFirst(wantedModule.count + 1)
    for suggestion in suggestions where suggestion.reason == .similarName {
      let other = suggestion.key.service
      guard let module = other.moduleName, module != wantedModule,
        other.name.dropFirst(module.count + 1) == wantedName
      else { continue }
      return
        "\(key.service.shortName) is declared in two modules, \(wantedModule) and \(module), so they are two "
        + "types: declare it once, in the shared contracts package, and import it from there."
    }
    return nil
  }

  /// At most this many suggestions are made.
  static let limit = 8

  /// The registrations of `registries` that `key` may have meant, most
  /// likely first: the same type under another name or with other
  /// arguments, then a type of the same name from a second copy of its
  /// module, then a type with a similar name.
  ///
  /// One pass over the registrations, oldest first, that compares names
  /// once per distinct service type rather than once per record (a
  /// container holds many registrations of a few types, and reflecting a
  /// type's name and an edit distance per record make a miss take
  /// seconds) and finds which registration of each chosen key wins (the
  /// newest) as it goes, without hashing every key. Each record costs a
  /// probe of ``TypeTable`` and, for a type with a chosen key, a look at
  /// the chosen names: no second pass to settle the winners and no
  /// `Dictionary` lookup per record for its type's verdict, which would
  /// nearly double the cost of a miss among many registrations.
  static func candidates(for key: ServiceKey, in registries: [RegistrySnapshot]) -> [Suggestion] {
    var sameType: [Candidate] = []
    var duplicated: [Candidate] = []
    var similar: [Candidate] = []
    var seen = Set<ServiceKey>()
    let wanted = WantedName(key.service)
    let wantedID = key.service.id
    var types = TypeTable()
    defer { types.deallocate() }
    for (position, registry) in registries.enumerated() {
      // The keys chosen from this registry, each at its first
      // registration here, and whether any is of the requested type.
      var chosen = ChosenKeys()
      var sameTypeChosen = false
      registry.forEachActive { record in
        let recordKey = record.key
        let id = recordKey.service.id
        let reason: Reason
        if id == wantedID {
          if sameTypeChosen && chosen.settle(record) { return }
          guard sameType.count < limit, recordKey != key else { return }
          reason = recordKey.name == key.name ? .otherArguments : .otherName
        } else {
          let facts: TypeTable.Facts
          if let known = types.facts(of: id) {
            facts = known
          } else {
            facts = types.add(id, verdict: wanted.relation(to: recordKey.service))
          }
          guard let verdict = facts.verdict else { return }
          if facts.chosenIn == position && chosen.settle(record) { return }
          guard (verdict == .duplicatedModule ? duplicated : similar).count < limit else { return }
          reason = verdict
        }
        guard seen.insert(recordKey).inserted else { return }
        let candidate = Candidate(reason: reason, winner: record)
        chosen.add(candidate)
        switch reason {
        case .otherName, .otherArguments:
          sameType.append(candidate)
          sameTypeChosen = true
        case .duplicatedModule:
          duplicated.append(candidate)
          types.markChosen(id, in: position)
        case .similarName:
          similar.append(candidate)
          types.markChosen(id, in: position)
        }
      }
    }
    return ranked(sameType: sameType, duplicated: duplicated, similar: similar, for: key)
  }

  /// The candidates found, at most ``limit``: the same type first, by how
  /// close its name is, then a duplicated module's, then similar names;
  /// within each, in the order the winning registrations were made, as the
  /// registry lists them.
  private static func ranked(
    sameType: [Candidate], duplicated: [Candidate], similar: [Candidate], for key: ServiceKey
  ) -> [Suggestion] {
    func ordered(_ group: [Candidate], rank: (Candidate) -> Int = { _ in 0 }) -> [Suggestion] {
      group.map { (rank($0), $0) }
        .sorted { ($0.0, $0.1.winner.sequence) < ($1.0, $1.1.winner.sequence) }
        .map(\.1.suggestion)
    }
    let all =
      ordered(sameType, rank: { closeness(of: $0.winner.key.name, to: key.name) }) + ordered(duplicated)
      + ordered(similar)
    return Array(all.prefix(limit))
  }

  /// How close a registered name is to the requested one, closest 0: the
  /// same name (other arguments), then the same but for case (`name:
  /// "mock"` meant "Mock" rather than the unnamed registration), then a
  /// similar name, then any other or none.
  private static func closeness(of name: String?, to wanted: String?) -> Int {
    guard let name, let wanted else { return 3 }
    if name == wanted { return 0 }
    let lowered = name.lowercased()
    let wantedLowered = wanted.lowercased()
    if lowered == wantedLowered { return 1 }
    return isSimilar(lowered, wantedLowered) ? 2 : 3
  }

  /// A registration chosen as a suggestion, and the one of its key that
  /// wins (the newest active one), once settled.
  private final class Candidate {
    let reason: Reason
    var winner: RegistrationRecord

    init(reason: Reason, winner: RegistrationRecord) {
      self.reason = reason
      self.winner = winner
    }

    var suggestion: Suggestion { Suggestion(reason: reason, key: winner.key, site: winner.site) }
  }

  /// The keys chosen from one registry (at most a few dozen), for telling
  /// which of its later registrations registers one of them again.
  private struct ChosenKeys {
    private var candidates: [Candidate] = []
    /// The names among the keys, and whether one has none: a name
    /// neither holds is not a chosen key's, which spares most
    /// registrations a comparison with every candidate.
    private var names = Set<String>()
    private var unnamed = false

    mutating func add(_ candidate: Candidate) {
      candidates.append(candidate)
      if let name = candidate.winner.key.name {
        names.insert(name)
      } else {
        unnamed = true
      }
    }

    /// Whether `record` registers one of the keys again; if so it is that
    /// key's winner now, being newer than every registration before it.
    func settle(_ record: RegistrationRecord) -> Bool {
      let key = record.key
      if let name = key.name {
        guard names.contains(name) else { return false }
      } else {
        guard unnamed else { return false }
      }
      guard let candidate = candidates.first(where: { $0.winner.key == key }) else { return false }
      candidate.winner = record
      return true
    }
  }

  /// The requested type's names, reflected once, and how another type's
  /// name relates to them.
  private struct WantedName {
    let name: String
    let short: String

    init(_ service: TypeIdentity) {
      name = service.name
      short = service.shortName.lowercased()
    }

    /// `.duplicatedModule` for another type of the same name, `.similarName`
    /// for a type whose short name is close, nil otherwise.
    func relation(to other: TypeIdentity) -> Reason? {
      // Reflected once: the short name is cut from it.
      let otherName = other.name
      if otherName == name { return .duplicatedModule }
      return isSimilar(TypeIdentity.shortName(of: otherName).lowercased(), short) ? .similarName : nil
    }
  }

  /// What one pass has learnt of each service type it met, found by the
  /// metatype's address in an open-addressing table: the verdict on its
  /// name, and the registry in which one of its keys was last chosen.
  /// Probed once per record, where a `Dictionary` keyed by
  /// `ObjectIdentifier` costs several times as much a probe. A struct,
  /// freed by its owner: a debug build checks each use
  /// of a class's stored properties for exclusive access.
  private struct TypeTable {
    struct Facts {
      /// The metatype's address; 0 in an empty slot.
      var bits: UInt = 0
      var verdict: Reason?
      /// The position in the pass's registries of the last registry from
      /// which one of the type's keys was chosen; -1 for none.
      var chosenIn = -1
    }

    private var slots: UnsafeMutablePointer<Facts>
    private var capacity: Int
    private var used = 0

    init() {
      capacity = 64
      slots = Self.emptySlots(capacity)
    }

    func deallocate() {
      slots.deinitialize(count: capacity)
      slots.deallocate()
    }

    /// The facts of the type, if it has been met.
    func facts(of id: ObjectIdentifier) -> Facts? {
      let index = slot(of: Registry.bits(of: id))
      return slots[index].bits == 0 ? nil : slots[index]
    }

    /// Records a type met for the first time, with its verdict.
    mutating func add(_ id: ObjectIdentifier, verdict: Reason?) -> Facts {
      let facts = Facts(bits: Registry.bits(of: id), verdict: verdict)
      slots[slot(of: facts.bits)] = facts
      used += 1
      if used * 2 > capacity { grow() }
      return facts
    }

    /// Records that one of the type's keys was chosen from the registry at
    /// `position`; the type has been met.
    func markChosen(_ id: ObjectIdentifier, in position: Int) {
      slots[slot(of: Registry.bits(of: id))].chosenIn = position
    }

    /// The slot holding `bits`, or the empty one where it would go.
    private func slot(of bits: UInt) -> Int {
      let mask = capacity - 1
      var index = Registry.index(of: bits, shift: 64 - capacity.trailingZeroBitCount)
      while slots[index].bits != bits && slots[index].bits != 0 { index = (index &+ 1) & mask }
      return index
    }

    private mutating func grow() {
      let old = slots
      let oldCapacity = capacity
      capacity *= 2
      slots = Self.emptySlots(capacity)
      var index = 0
      while index < oldCapacity {
        if old[index].bits != 0 { slots[slot(of: old[index].bits)] = old[index] }
        index += 1
      }
      old.deinitialize(count: oldCapacity)
      old.deallocate()
    }

    private static func emptySlots(_ capacity: Int) -> UnsafeMutablePointer<Facts> {
      let slots = UnsafeMutablePointer<Facts>.allocate(capacity: capacity)
      slots.initialize(repeating: Facts(), count: capacity)
      return slots
    }
  }

  /// Close enough to be a typo, or one name containing the other
  /// (`AuthRepository` and `AuthRepositoryImpl`).
  static func isSimilar(_ lhs: String, _ rhs: String) -> Bool {
    if lhs == rhs { return true }
    let lhsCount = lhs.count
    let rhsCount = rhs.count
    if lhsCount >= 4 && rhsCount >= 4 && (contains(lhs, rhs) || contains(rhs, lhs)) { return true }
    let allowed = max(1, min(lhsCount, rhsCount) / 4)
    return editDistance(lhs, rhs, limit: allowed) <= allowed
  }

  /// Whether `text` contains `part`. Two ASCII names are compared byte by
  /// byte, which finds what Foundation's search finds for them (no
  /// character of either has another form) at a small fraction of its
  /// cost; any other pair is left to Foundation.
  private static func contains(_ text: String, _ part: String) -> Bool {
    guard !TypeBucket.isNotASCII(text) && !TypeBucket.isNotASCII(part) else { return text.contains(part) }
    var text = text
    var part = part
    return text.withUTF8 { textBytes in
      part.withUTF8 { partBytes in
        // Foundation finds no empty string.
        guard let text = textBytes.baseAddress, let part = partBytes.baseAddress,
          !partBytes.isEmpty && partBytes.count <= textBytes.count
        else { return false }
        var start = 0
        while start + partBytes.count <= textBytes.count {
          var matched = 0
          while matched < partBytes.count && text[start + matched] == part[matched] { matched += 1 }
          if matched == partBytes.count { return true }
          start += 1
        }
        return false
      }
    }
  }

  /// Levenshtein distance, giving up (returning `limit + 1`) once it exceeds
  /// `limit`.
  static func editDistance(_ lhs: String, _ rhs: String, limit: Int) -> Int {
    // Counted before they are copied: most pairs differ too much in length.
    if abs(lhs.unicodeScalars.count - rhs.unicodeScalars.count) > limit { return limit + 1 }
    let a = Array(lhs.unicodeScalars)
    let b = Array(rhs.unicodeScalars)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...max(a.count, 1) where !a.isEmpty {
      current[0] = i
      var rowMinimum = current[0]
      for j in 1...max(b.count, 1) where !b.isEmpty {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        rowMinimum = min(rowMinimum, current[j])
      }
      if rowMinimum > limit { return limit + 1 }
      swap(&previous, &current)
    }
    return a.isEmpty ? b.count : previous[b.count]
  }
}
