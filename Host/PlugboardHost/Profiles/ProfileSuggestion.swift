/// The sentence for a profile name that is not declared, with a
/// did-you-mean when one declared name is close, and the declared names
/// otherwise. Shared by the manifest (`activeProfile`, a plugin's
/// `profiles`) and the command line (`--profile`, `PLUGBOARD_PROFILE`).
enum ProfileSuggestion {
  static func notDeclared(_ name: String, among declared: [String], in manifest: String? = nil) -> String {
    let head = "no profile '\(Terminal.sanitize(name))' is declared" + (manifest.map { " in \($0)" } ?? "")
    guard !declared.isEmpty else { return head + "; the manifest declares no profiles" }
    if let close = KeySuggestion.closest(to: name, among: declared) {
      return head + "; did you mean '\(close)'?"
    }
    return head + "; declared: " + declared.map { "'\($0)'" }.joined(separator: ", ")
  }
}
