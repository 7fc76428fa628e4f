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

  /// At most this many suggestions are made.
  static let limit = 8

  /// The registrations of `registries` that `key` may have meant, most
  /// likely first: the same type under another name or with other
  /// arguments, then a type of the same name from a second copy of its
  /// module, then a type with a similar name.
  ///
  /// One pass over the registrations, comparing names once per distinct
  /// service type rather than once per record, and one more, newest
  /// first, to find which registration of each chosen key wins (without
  /// hashing every key, as working out all winners would): a container of 1,000,000
  /// registrations of a few types took 8 s (26.5 s for an unrelated type)
  /// when every record paid for reflecting its type's name and an edit
  /// distance.
  static func candidates(for key: ServiceKey, in registries: [RegistrySnapshot]) -> [Suggestion] {
    var sameType: [Candidate] = []
    var otherTypes: [Reason: [Candidate]] = [:]
    var seen = Set<ServiceKey>()
    var verdicts: [ObjectIdentifier: Reason?] = [:]
    let wanted = WantedName(key.service)
    for registry in registries {
      var chosen: [Candidate] = []
      // Each key once, at its first registration; which one wins is
      // settled below for the few chosen.
      registry.forEachActive { record in
        guard record.key != key else { return }
        let reason: Reason
        if record.key.service == key.service {
          guard sameType.count < limit else { return }
          reason = record.key.name == key.name ? .otherArguments : .otherName
        } else {
          let service = record.key.service
          let verdict: Reason?
          if let known = verdicts[service.id] {
            verdict = known
          } else {
            verdict = wanted.relation(to: service)
            verdicts[service.id] = verdict
          }
          guard let verdict, otherTypes[verdict, default: []].count < limit else { return }
          reason = verdict
        }
        guard seen.insert(record.key).inserted else { return }
        let candidate = Candidate(reason: reason, winner: record)
        chosen.append(candidate)
        if reason == .otherName || reason == .otherArguments {
          sameType.append(candidate)
        } else {
          otherTypes[reason, default: []].append(candidate)
        }
      }
      settleWinners(of: chosen, in: registry)
    }
    // In the order the winning registrations were made, as the registry
    // lists them.
    func ordered(_ group: [Candidate]) -> [Suggestion] {
      group.sorted { $0.winner.sequence < $1.winner.sequence }.map(\.suggestion)
    }
    let all =
      ordered(sameType) + ordered(otherTypes[.duplicatedModule, default: []])
      + ordered(otherTypes[.similarName, default: []])
    return Array(all.prefix(limit))
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

  /// Points each of `chosen` (at most a few dozen) at the newest active
  /// registration of its key in `registry`: one pass, newest first,
  /// comparing type identities before whole keys.
  private static func settleWinners(of chosen: [Candidate], in registry: RegistrySnapshot) {
    guard !chosen.isEmpty else { return }
    var unsettled = chosen
    registry.forEachActive(newestFirst: true) { record in
      guard !unsettled.isEmpty else { return }
      let id = record.key.service.id
      if let index = unsettled.firstIndex(where: {
        $0.winner.key.service.id == id && $0.winner.key == record.key
      }) {
        unsettled[index].winner = record
        unsettled.remove(at: index)
      }
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
      let otherName = other.name
      if otherName == name { return .duplicatedModule }
      return isSimilar(other.shortName.lowercased(), short) ? .similarName : nil
    }
  }

  /// Close enough to be a typo, or one name containing the other
  /// (`AuthRepository` and `AuthRepositoryImpl`).
  static func isSimilar(_ lhs: String, _ rhs: String) -> Bool {
    if lhs == rhs { return true }
    if lhs.count >= 4 && rhs.count >= 4 && (lhs.contains(rhs) || rhs.contains(lhs)) { return true }
    let allowed = max(1, min(lhs.count, rhs.count) / 4)
    return editDistance(lhs, rhs, limit: allowed) <= allowed
  }

  /// Levenshtein distance, giving up (returning `limit + 1`) once it exceeds
  /// `limit`.
  static func editDistance(_ lhs: String, _ rhs: String, limit: Int) -> Int {
    let a = Array(lhs.unicodeScalars)
    let b = Array(rhs.unicodeScalars)
    if abs(a.count - b.count) > limit { return limit + 1 }
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
