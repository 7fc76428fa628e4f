import PlugboardEngine

/// The commands that analyse a deployment without running it.
extension CommandSpec {
  static let check = CommandSpec(
    name: "check",
    summary: "validate the whole deployment without running it, in every profile",
    options: [
      .manifest,
      OptionSpec.profile.helping(
        "check only this profile (default: every declared profile, whatever PLUGBOARD_PROFILE names)"),
      .resolve, OptionSpec.json.helping("print the report as JSON for machines"),
    ] + OptionSpec.supervision,
    passthrough: nil)

  static let explain = CommandSpec(
    name: "explain",
    summary: "show how TYPE would be resolved: the registration chosen, its tree, the others",
    options: [
      .manifest, .profile,
      .registrationName, OptionSpec.json.helping("print the answer as JSON for machines"), .typeNames,
    ] + OptionSpec.supervision,
    passthrough: nil, positional: "TYPE", positionalNotNeededWith: .typeNames)

  static let graph = CommandSpec(
    name: "graph",
    summary: "print the dependency graph, grouped by plugin, for Graphviz or Mermaid",
    options: [
      .manifest, .profile, .format,
    ] + OptionSpec.supervision,
    passthrough: nil)
}
