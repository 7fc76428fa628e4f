import PlugboardKit

/// The checks that make a plugin's `profiles` list mean what it reads as.
///
/// The entries are alternatives: the plugin loads when any one matches.
/// That is Spring's reading of a list, and the one a list of plain names
/// suggests (`["mock", "test"]`), but it turns a list of negations upside
/// down: `["!live", "!mock"]` reads as "neither live nor mock" and matches
/// every profile, since every profile is either not `live` or not `mock`.
/// Because every name must be declared, what a condition matches is known
/// here; one that matches every declared profile, or none, is refused
/// with what to write instead, as are repeated and contradictory entries.
extension ManifestDecoder {
  /// Whether `expressions` (all naming declared profiles) is a condition
  /// worth keeping; reports why not at `path` otherwise.
  mutating func conditionSaysWhatItMeans(_ expressions: [String], at path: ManifestPath) -> Bool {
    var seen: [String: Int] = [:]
    var sound = true
    for (index, expression) in expressions.enumerated() {
      let negated = expression.hasPrefix("!")
      let opposite = negated ? String(expression.dropFirst()) : "!" + expression
      if let earlier = seen[expression] {
        report(
          path.index(index), "\"\(expression)\" is already listed at [\(earlier)]; list each profile once")
        sound = false
      } else if let earlier = seen[opposite] {
        report(
          path.index(index),
          "\"\(expression)\" and \"\(opposite)\" at [\(earlier)] together match every profile; "
            + "omit \"profiles\" to load the plugin in every profile")
        sound = false
      }
      if seen[expression] == nil { seen[expression] = index }
    }
    guard sound else { return false }
    // What the alternatives match, counted from the list alone (every name
    // is declared, none repeated, none beside its negation), so that a
    // manifest of many plugins and many profiles costs their sum, not
    // their product.
    let negated = expressions.filter { $0.hasPrefix("!") }.count
    let positive = expressions.count - negated
    // "!a" matches every declared profile but a, and two negations every
    // one; names alone match themselves.
    if negated >= 2 || (negated == 0 && positive == declaredProfileNames.count) {
      report(path) { $0.everyProfile(expressions) }
      return false
    }
    if (negated == 0 && positive == 0) || (negated == 1 && declaredProfileNames.count == 1) {
      report(path) {
        "matches no declared profile (declared: \($0.declaredList)), so the plugin would never load; "
          + "set \"enabled\": false to keep it listed but not loaded"
      }
      return false
    }
    return true
  }

  /// Why a condition matching every declared profile is refused, and what
  /// the author of a list of negations meant instead.
  func everyProfile(_ expressions: [String]) -> String {
    let excluded = expressions.filter { $0.hasPrefix("!") }.map { String($0.dropFirst()) }
    guard excluded.count > 1 else {
      return "matches every declared profile (\(declaredList)); "
        + "omit \"profiles\" to load the plugin in every profile"
    }
    let listed = expressions.map { "\"\($0)\"" }.joined(separator: ", ")
    let head =
      "[\(listed)] matches every profile: the entries are alternatives (the plugin loads when any one "
      + "matches), and every profile is either not '\(excluded[0])' or not '\(excluded[1])'"
    let rest = profileNames.filter { !excluded.contains($0) }
    guard !rest.isEmpty else {
      return head + "; no declared profile is outside them, so set \"enabled\": false instead"
    }
    let shown = rest.prefix(ProfileSuggestion.listedNames).map { "\"\(Excerpt.of($0))\"" }
    let more = rest.count > shown.count ? " and \(rest.count - shown.count) more" : ""
    let list = shown.joined(separator: ", ") + more
    return head + "; to load it only where none of them is active, list those profiles: [\(list)]"
  }

  /// `'live', 'mock'`; past ``ProfileSuggestion/listedNames`` names, the
  /// rest only counted.
  var declaredList: String {
    ProfileSuggestion.list(profileNames)
  }
}
