/// The sentence for a profile name that is not declared, with a
/// did-you-mean when one declared name is close, and the declared names
/// otherwise. Shared by the manifest (`activeProfile`, a plugin's
/// `profiles`) and the command line (`--profile`, `PLUGBOARD_PROFILE`).
enum ProfileSuggestion {
  /// How many declared names a message lists. A manifest may declare
  /// thousands; listing them all in each of its problems made a report of
  /// P × R names (176 MB for 4,000 declared and 4,000 misspelt).
  static let listedNames = 10

  static func notDeclared(_ name: String, among declared: [String], in manifest: String? = nil) -> String {
    let head =
      "no profile '\(Excerpt.of(Terminal.sanitize(name)))' is declared" + (manifest.map { " in \($0)" } ?? "")
    guard !declared.isEmpty else { return head + "; the manifest declares no profiles" }
    if let close = KeySuggestion.closest(to: name, among: declared) {
      return head + "; did you mean '\(Excerpt.of(close))'?"
    }
    return head + "; declared: " + list(declared)
  }

  /// `'live', 'mock'`: the first ``listedNames`` names, quoted, then how
  /// many more there are.
  static func list(_ names: [String]) -> String {
    let shown = names.prefix(listedNames).map { "'\(Excerpt.of($0))'" }.joined(separator: ", ")
    let more = names.count - listedNames
    return more > 0 ? shown + " and \(more) more" : shown
  }
}
