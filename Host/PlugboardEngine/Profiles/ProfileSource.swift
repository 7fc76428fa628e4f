/// What chose the active profile. The order of the cases is the
/// precedence, lowest first: the manifest's default, then the environment,
/// then the command line.
///
/// The command line wins over the environment because it is the most
/// specific and the most visible choice: a `PLUGBOARD_PROFILE` exported in
/// a shell profile or a CI job is easily forgotten, a `--profile` typed for
/// one command is not (Spring Boot ranks command-line arguments above
/// environment variables for the same reason).
public enum ProfileSource: String, Sendable, Codable, CaseIterable {
  /// `activeProfile` in `plugins.json`.
  case manifest
  /// The `PLUGBOARD_PROFILE` environment variable.
  case environment
  /// `--profile NAME` on the command line.
  case option

  /// For people: `--profile`, `PLUGBOARD_PROFILE`, `activeProfile in plugins.json`.
  public var label: String {
    switch self {
    case .manifest: "activeProfile in the manifest"
    case .environment: ProfileChooser.environmentVariable
    case .option: ProfileChooser.optionName
    }
  }
}
