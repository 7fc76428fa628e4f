import PlugboardEngine

/// The commands for plugin authors and shells, which load no deployment.
extension CommandSpec {
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
