/// One option a command accepts.
struct OptionSpec: Sendable {
  /// `--manifest`.
  let name: String
  /// `PATH` for an option that takes a value; nil for a flag.
  let valueName: String?
  let help: String

  /// `--manifest PATH`, shared by every command that reads a deployment.
  static let manifest = OptionSpec(
    name: "--manifest", valueName: "PATH",
    help: "the deployment's manifest (default: ./plugins.json)")

  /// `--profile NAME`: the profile to bring the deployment up in. It
  /// overrides `PLUGBOARD_PROFILE`, which overrides the manifest's
  /// `activeProfile` (see ``ProfileChooser``).
  static let profile = OptionSpec(
    name: ProfileChooser.optionName, valueName: "NAME",
    help: "the profile to use (overrides PLUGBOARD_PROFILE and the manifest's activeProfile)")
}
