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

  /// What a script asks the plugboard being completed (the line's first
  /// word) for names only the deployment knows: the arguments it runs it
  /// with, and the options of the line it passes on.
  struct Query {
    /// `profile`: the scripts' functions are named after it
    /// (`_plugboard_profiles`, `__plugboard_profiles`).
    let noun: String
    /// What it asks for, as the scripts' comments say it.
    let summary: String
    let arguments: [String]
    let forwarded: [String]

    /// `forwarded` as one word, for the scripts' helper.
    var forwardedWord: String { forwarded.joined(separator: " ") }
    var argumentWords: String { arguments.joined(separator: " ") }
  }

  /// `--profile NAME`: the profiles the manifest on the line declares.
  static let profileQuery = Query(
    noun: "profile",
    summary: "The profiles the manifest on the line declares (its --manifest, or plugins.json here).",
    arguments: [CommandSpec.completion.name, OptionSpec.profileNames.name],
    forwarded: [OptionSpec.manifest.name])

  /// `explain TYPE`: the types the deployment on the line registers, in
  /// the profile on the line (its plugins load, supervised, to say so).
  static let typeQuery = Query(
    noun: "type", summary: "The types the deployment on the line registers, in its profile.",
    arguments: [CommandSpec.explain.name, OptionSpec.typeNames.name],
    forwarded: [OptionSpec.manifest.name, OptionSpec.profile.name])

  static let queries = [profileQuery, typeQuery]

  /// The query for a command's positional values, when only the
  /// deployment knows them.
  static func positionalQuery(_ spec: CommandSpec) -> Query? {
    spec.name == CommandSpec.explain.name ? typeQuery : nil
  }

  /// The options a command offers to whoever types: its own, without
  /// those the scripts call themselves.
  static func offeredOptions(_ spec: CommandSpec) -> [OptionSpec] {
    spec.options.filter { !internalOptions.contains($0.name) }
  }

  /// Whether an option's value is a file or folder, so it completes to paths.
  static func takesPath(_ option: OptionSpec) -> Bool {
    isPath(option.valueName ?? "")
  }

  /// Whether a command's positional arguments are files (`verify FILE…`),
  /// so they complete to paths.
  static func positionalTakesPaths(_ spec: CommandSpec) -> Bool {
    isPath(String((spec.positional ?? "").prefix { $0 != "…" }))
  }

  /// Whether a value named `name` in the specs (`PATH`, `DIR`, `FILE`) is a path.
  private static func isPath(_ name: String) -> Bool {
    ["PATH", "DIR", "FILE"].contains(name)
  }

  /// Options the scripts call themselves (`completion --profile-names`,
  /// `explain --type-names`), never offered to whoever types.
  static let internalOptions: Set = [OptionSpec.profileNames.name, OptionSpec.typeNames.name]

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
