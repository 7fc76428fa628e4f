import PlugboardEngine

/// The commands for plugin authors and shells, which load no deployment.
extension CommandSpec {
  static let new = CommandSpec(
    name: "new",
    summary: "create a plugin package NAME that builds with swift build and loads into the sample",
    options: [
      OptionSpec(name: NewCommand.pathOption, valueName: "DIR", help: "where to create it (default: ./NAME)"),
      OptionSpec(
        name: NewCommand.sdkOption, valueName: "DIR",
        help: "the Plugboard checkout holding Kit/ and Plugins/Contracts/ (default: found above DIR)"),
      OptionSpec(
        name: NewCommand.kitOption, valueName: "URL@VERSION",
        help: "depend on the SDK by version, from the repository Scripts/export-sdk made (with --contracts)"),
      OptionSpec(
        name: NewCommand.contractsOption, valueName: "URL@VERSION",
        help: "depend on the shared contracts by version, from their exported repository (with --kit)"),
    ],
    passthrough: nil, positional: "NAME", statuses: HelpText.newStatuses)

  static let completion = CommandSpec(
    name: "completion",
    summary: "print a completion script for SHELL (bash, zsh or fish)",
    options: [
      OptionSpec(
        name: CompletionCommand.profileNamesOption, valueName: nil,
        help:
          "print the profiles the manifest declares, one per line, instead of a script (the scripts call it)"),
      .manifest,
    ], passthrough: nil, positional: "SHELL", positionalNotNeededWith: CompletionCommand.profileNamesOption,
    statuses: HelpText.completionStatuses)
}
