import PlugboardEngine

/// The options only one command takes. Each is declared once, here, and
/// both the command's spec (parsing, help, completion) and the command
/// itself use it: a command reads `options[.name]`, so an option it does
/// not declare is a compile error rather than a value that is always nil.
extension OptionSpec {
  /// `check --resolve`: also run every registration's factory.
  static let resolve = OptionSpec(
    name: "--resolve", valueName: nil,
    help: "also resolve every registration, running its factory, and report each that fails")

  /// `explain --name NAME`: the registration name asked for.
  static let registrationName = OptionSpec(
    name: "--name", valueName: "NAME", help: "the registration name asked for")

  /// `explain --type-names`: what the completion scripts call to complete TYPE.
  static let typeNames = OptionSpec(
    name: "--type-names", valueName: nil,
    help: "print the types TYPE can name, one per line, instead of an answer (the completion scripts call it)"
  )

  /// `graph --format FORMAT`.
  static let format = OptionSpec(
    name: "--format", valueName: "FORMAT", help: "dot (default), mermaid or json",
    choices: GraphCommand.formats)

  /// `reload --pid PID`: the supervising process to signal.
  static let pid = OptionSpec(name: "--pid", valueName: "PID", help: "the supervising process of the run")

  /// `new --path DIR`: where the package is created.
  static let path = OptionSpec(name: "--path", valueName: "DIR", help: "where to create it (default: ./NAME)")

  /// `new --sdk DIR`: the checkout the package depends on by path.
  static let sdk = OptionSpec(
    name: "--sdk", valueName: "DIR",
    help: "the Plugboard checkout holding Kit/ and Plugins/Contracts/ (default: found above DIR)")

  /// `new --kit URL@VERSION`: the SDK by version.
  static let kit = OptionSpec(
    name: "--kit", valueName: "URL@VERSION",
    help: "depend on the SDK by version, from the repository Scripts/export-sdk made (with --contracts)")

  /// `new --contracts URL@VERSION`: the shared contracts by version.
  static let contracts = OptionSpec(
    name: "--contracts", valueName: "URL@VERSION",
    help: "depend on the shared contracts by version, from their exported repository (with --kit)")

  /// `completion --profile-names`: what the scripts call to complete `--profile`.
  static let profileNames = OptionSpec(
    name: "--profile-names", valueName: nil,
    help: "print the profiles the manifest declares, one per line, instead of a script (the scripts call it)")

  /// `verify --signature PATH`: the signature of its one FILE, when it is
  /// not `FILE.sig`.
  static let signature = OptionSpec(
    name: "--signature", valueName: "PATH",
    help: "the signature of the one FILE (default: FILE.sig beside it)")

  /// `verify --allowed-signers PATH`: the deployment's allowed signers file.
  static let allowedSigners = OptionSpec(
    name: "--allowed-signers", valueName: "PATH",
    help:
      "also check that a line of this allowed signers file lets the key sign each plugin, as a deployment does"
  )

  /// `verify --revoked-keys PATH`: the deployment's revoked keys file.
  static let revokedKeys = OptionSpec(
    name: "--revoked-keys", valueName: "PATH",
    help: "refuse a signature by a key this revoked keys file lists")

  /// `verify --plugin NAME`: the plugin name its one FILE is signed for.
  static let plugin = OptionSpec(
    name: "--plugin", valueName: "NAME",
    help:
      "the plugin name the one FILE's signer must be allowed to sign (default: from its file, libWeather.so: Weather)"
  )
}
