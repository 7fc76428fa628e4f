/// The text of `plugboard --help` and `plugboard <command> --help`.
enum HelpText {
  static func general(commands: [CommandSpec] = CommandSpec.all) -> String {
    let width = commands.map(\.name.count).max() ?? 0
    let lines = commands.map { "  \($0.name.padded(to: width))  \($0.summary)" }
    return """
      plugboard — loads the plugins a manifest names into one container and runs the application

      Usage: plugboard <command> [options]
             plugboard --version
             plugboard --help | <command> --help

      Commands:
      \(lines.joined(separator: "\n"))

      \(exitStatuses)
      """
  }

  static func command(_ spec: CommandSpec) -> String {
    let options = spec.options + [OptionSpec(name: "--help", valueName: nil, help: "show this help")]
    let labels = options.map { [$0.name, $0.valueName].compactMap { $0 }.joined(separator: " ") }
    let width = labels.map(\.count).max() ?? 0
    let lines = zip(labels, options).map { "  \($0.padded(to: width))  \($1.help)" }
    let tail = spec.passthrough.map { " [-- \($0)]" } ?? ""
    return """
      plugboard \(spec.name) — \(spec.summary)

      Usage: plugboard \(spec.name)\(spec.positional.map { " \($0)" } ?? "") [options]\(tail)

      Options:
      \(lines.joined(separator: "\n"))

      \(exitStatuses)
      """
  }

  private static let exitStatuses = """
    Exit status: 0 healthy; 1 problems found in the deployment (reported on stderr);
    2 command-line misuse. 'run' exits with the application's own status once it ran.
    """
}
