import PlugboardEngine

extension CompletionScript {
  /// For `plugboard completion fish | source`, or saved in
  /// `~/.config/fish/completions/plugboard.fish`.
  static func fish(_ commands: [CommandSpec]) -> String {
    var lines = [
      "# fish completion for plugboard; load with: plugboard completion fish | source",
      "complete -c plugboard -f",
      "# The profiles the manifest on the line declares (its \(OptionSpec.manifest.name), or plugins.json here),",
      "# from the plugboard being completed.",
      "function __plugboard_profiles",
      "    set -l tokens (commandline -opc)",
      "    set -l manifest",
      "    for i in (seq 2 (count $tokens))",
      "        switch $tokens[$i]",
      "            case \(OptionSpec.manifest.name)",
      "                if test $i -lt (count $tokens)",
      "                    set manifest \(OptionSpec.manifest.name) $tokens[(math $i + 1)]",
      "                end",
      "            case '\(OptionSpec.manifest.name)=*'",
      "                set manifest \(OptionSpec.manifest.name) (string replace -- \(OptionSpec.manifest.name)= '' $tokens[$i])",
      "        end",
      "    end",
      "    command -q -- $tokens[1]; or return",
      "    $tokens[1] completion \(CompletionCommand.profileNamesOption) $manifest 2>/dev/null",
      "end",
    ]
    for spec in commands {
      lines.append(
        "complete -c plugboard -n __fish_use_subcommand -a \(fishQuoted(spec.name)) -d \(fishQuoted(spec.summary))"
      )
    }
    for spec in commands {
      let condition = fishQuoted("__fish_seen_subcommand_from \(spec.name)")
      for option in spec.options + [OptionSpec(name: "--help", valueName: nil, help: "show this help")] {
        let long = String(option.name.dropFirst(2))
        let choices =
          option.name == OptionSpec.profile.name
          ? " -a '(__plugboard_profiles)'"
          : option.choices.isEmpty ? "" : " -a \(fishQuoted(option.choices.joined(separator: " ")))"
        let value = option.valueName == nil ? "" : takesPath(option) ? " -r -F" : " -x" + choices
        lines.append(
          "complete -c plugboard -n \(condition) -l \(fishQuoted(long))\(value) -d \(fishQuoted(option.help))"
        )
      }
      let positional = positionalValues(spec)
      if !positional.isEmpty {
        lines.append(
          "complete -c plugboard -n \(condition) -a \(fishQuoted(positional.joined(separator: " ")))")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// `text` in single quotes for fish, where `\` and `'` are escaped.
  static func fishQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
  }
}
