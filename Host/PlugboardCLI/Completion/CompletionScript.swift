import PlugboardEngine

/// Shell completion scripts for `plugboard`, made from the command specs so
/// that a new command or option completes without anyone editing a script.
/// Every name and help text is quoted for the shell it goes to; the specs
/// are plugboard's own, but a quoting slip would still break the script.
enum CompletionScript {
  /// The shells a script can be printed for, as `plugboard completion` names them.
  static let shells = ["bash", "zsh", "fish"]

  /// The script for `shell`, or nil for a shell not in ``shells``.
  static func script(for shell: String, commands: [CommandSpec] = CommandSpec.all) -> String? {
    switch shell {
    case "bash": return bash(commands)
    case "zsh": return zsh(commands)
    case "fish": return fish(commands)
    default: return nil
    }
  }

  /// Values a positional argument completes to, by its name in the spec.
  static func positionalValues(_ spec: CommandSpec) -> [String] {
    spec.name == CommandSpec.completion.name ? shells : []
  }

  /// Whether an option's value is a file or folder, so it completes to paths.
  static func takesPath(_ option: OptionSpec) -> Bool {
    ["PATH", "DIR"].contains(option.valueName ?? "")
  }

  /// Options the scripts call themselves (`completion --profile-names`),
  /// never offered to whoever types.
  static let internalOptions: Set = [CompletionCommand.profileNamesOption]

  /// The options offered before a command is typed: those every command
  /// that reads a manifest takes (`--manifest`), which mean the same
  /// whichever command follows. A command's own options come after it.
  static func sharedOptions(_ commands: [CommandSpec]) -> [OptionSpec] {
    let readers = commands.filter { $0.option(named: OptionSpec.manifest.name) != nil }
    guard let first = readers.first else { return [] }
    return first.options.filter { option in readers.allSatisfy { $0.option(named: option.name) != nil } }
  }

  /// Every option of any command, once each, in order of first appearance.
  static func allOptions(_ commands: [CommandSpec]) -> [OptionSpec] {
    var seen: Set<String> = []
    return commands.flatMap(\.options).filter { seen.insert($0.name).inserted }
  }
}
