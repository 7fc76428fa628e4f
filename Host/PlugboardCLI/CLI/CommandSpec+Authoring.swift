import PlugboardEngine

/// The commands for plugin authors and shells, which load no deployment.
extension CommandSpec {
  static let verify = CommandSpec(
    name: "verify",
    summary:
      "check each FILE's signature FILE.sig as a deployment would, and print who signed it (loads nothing)",
    options: [
      .signature, .allowedSigners, .revokedKeys, .plugin,
      OptionSpec.json.helping("print the result as JSON for machines"),
    ],
    passthrough: nil, positional: "FILE…", positionalRepeats: true, statuses: HelpText.verifyStatuses)

  static let new = CommandSpec(
    name: "new",
    summary: "create a plugin package NAME that builds with swift build and loads into the sample",
    options: [.path, .sdk, .kit, .contracts],
    passthrough: nil, positional: "NAME", statuses: HelpText.newStatuses)

  static let completion = CommandSpec(
    name: "completion",
    summary: "print a completion script for SHELL (bash, zsh or fish)",
    options: [.profileNames, .manifest], passthrough: nil, positional: "SHELL",
    positionalNotNeededWith: .profileNames,
    statuses: HelpText.completionStatuses)
}
