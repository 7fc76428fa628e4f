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

  static func candidates(for key: ServiceKey, among records: [RegistrationRecord]) -> [Suggestion] {
    var found: [Suggestion] = []
    var seen = Set<ServiceKey>()
    let wantedName = key.service.name
    let wantedShort = key.service.shortName.lowercased()
    func add(_ reason: Reason, _ record: RegistrationRecord) {
      guard seen.insert(record.key).inserted else { return }
      found.append(Suggestion(reason: reason, key: record.key, site: record.site))
    }
    for record in records where record.key.service == key.service && record.key != key {
      add(record.key.name == key.name ? .otherArguments : .otherName, record)
    }
    for record in records where record.key.service != key.service {
      if record.key.service.name == wantedName { add(.duplicatedModule, record) }
    }
    for record in records where record.key.service != key.service {
      let short = record.key.service.shortName.lowercased()
      guard short != wantedShort || record.key.service.name != wantedName else { continue }
      if isSimilar(short, wantedShort) { add(.similarName, record) }
    }
    return Array(found.prefix(8))
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
