/// Matches the TYPE people type for `plugboard explain` against the type
/// names a deployment knows: the fully qualified name, or the bare name
/// when only one type has it (`AuthService` for `AppContracts.AuthService`;
/// `any AuthService` is accepted too).
package enum TypeQuery {
  package enum Match: Equatable {
    case found(String)
    /// Several types have that bare name: the qualified names.
    case ambiguous([String])
    /// Nothing has it; the closest name, if one is close.
    case unknown(suggestion: String?)
  }

  package static func match(_ query: String, among names: [String]) -> Match {
    let wanted = query.hasPrefix("any ") ? String(query.dropFirst(4)) : query
    let unique = Array(Set(names)).sorted()
    if unique.contains(wanted) { return .found(wanted) }
    let bare = unique.filter { bareName($0) == wanted }
    if bare.count == 1 { return .found(bare[0]) }
    if bare.count > 1 { return .ambiguous(bare) }
    let candidates = unique + unique.map(bareName)
    let closest = KeySuggestion.closest(to: wanted, among: candidates)
    return .unknown(
      suggestion: closest.flatMap { name in
        unique.contains(name) ? name : unique.first { bareName($0) == name }
      })
  }

  /// What to offer for a TYPE among `names`, sorted: each type by its bare
  /// name when no other type has that bare name (``match(_:among:)``
  /// finds it by that), by its qualified name otherwise.
  package static func offered(among names: [String]) -> [String] {
    let unique = Array(Set(names))
    let bareCounts = Dictionary(unique.map { (bareName($0), 1) }, uniquingKeysWith: +)
    return unique.map { bareCounts[bareName($0)] == 1 ? bareName($0) : $0 }.sorted()
  }

  /// `AppContracts.AuthService` → `AuthService`; generic arguments keep
  /// their qualification, as PlugboardKit's `shortName` does.
  static func bareName(_ name: String) -> String {
    let head = name.prefix { $0 != "<" }
    let shortHead = head.split(separator: ".").last.map(String.init) ?? String(head)
    return shortHead + name.dropFirst(head.count)
  }
}
