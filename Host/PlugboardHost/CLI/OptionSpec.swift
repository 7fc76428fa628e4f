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
}
