/// Decides the active profile from the three places that can name it.
///
/// Precedence, highest first: `--profile NAME`, then the
/// `PLUGBOARD_PROFILE` environment variable (ignored when empty), then the
/// manifest's `activeProfile`. See ``ProfileSource`` for why. A name that
/// the manifest does not declare is an error, never a fallback.
package enum ProfileChooser {
  package static let environmentVariable = "PLUGBOARD_PROFILE"
  package static let optionName = "--profile"

  /// The active profile, or nil when the manifest declares none (and
  /// neither the flag nor the environment names one).
  package static func choose(
    for manifest: Manifest, option: String?, environment: [String: String]
  ) -> Result<ActiveProfile?, ProfileChoiceError> {
    let requested: (String, ProfileSource)? =
      if let option {
        (option, .option)
      } else if let variable = environment[environmentVariable], !variable.isEmpty {
        (variable, .environment)
      } else {
        manifest.activeProfile.map { ($0, .manifest) }
      }
    guard let (name, source) = requested else { return .success(nil) }
    guard let declaration = manifest.profile(named: name) else {
      let message = ProfileSuggestion.notDeclared(
        name, among: manifest.profiles.map(\.name), in: manifest.path)
      return .failure(ProfileChoiceError(source: source, requested: name, message: message))
    }
    return .success(ActiveProfile(declaration, source: source, manifestDefault: manifest.activeProfile))
  }
}
