import PlugboardEngine

/// The commands that analyse a deployment without running it.
extension CommandSpec {
  static let check = CommandSpec(
    name: "check",
    summary: "validate the whole deployment without running it, in every profile",
    options: [
      .manifest,
      OptionSpec(
        name: ProfileChooser.optionName, valueName: "NAME",
        help: "check only this profile (default: every declared profile, whatever PLUGBOARD_PROFILE names)"),
      OptionSpec(
        name: CheckCommand.resolveFlag, valueName: nil,
        help: "also resolve every registration, running its factory, and report each that fails"),
      OptionSpec(name: "--json", valueName: nil, help: "print the report as JSON for machines"),
    ] + OptionSpec.supervision,
    passthrough: nil)

  static let explain = CommandSpec(
    name: "explain",
    summary: "show how TYPE would be resolved: the registration chosen, its tree, the others",
    options: [
      .manifest, .profile,
      OptionSpec(name: ExplainCommand.nameOption, valueName: "NAME", help: "the registration name asked for"),
      OptionSpec(name: ListCommand.jsonFlag, valueName: nil, help: "print the answer as JSON for machines"),
      OptionSpec(
        name: ExplainCommand.typeNamesOption, valueName: nil,
        help:
          "print the types TYPE can name, one per line, instead of an answer (the completion scripts call it)"
      ),
    ] + OptionSpec.supervision,
    passthrough: nil, positional: "TYPE", positionalNotNeededWith: ExplainCommand.typeNamesOption)

  static let graph = CommandSpec(
    name: "graph",
    summary: "print the dependency graph, grouped by plugin, for Graphviz or Mermaid",
    options: [
      .manifest, .profile,
      OptionSpec(
        name: GraphCommand.formatOption, valueName: "FORMAT", help: "dot (default), mermaid or json",
        choices: GraphCommand.formats),
    ] + OptionSpec.supervision,
    passthrough: nil)
}
