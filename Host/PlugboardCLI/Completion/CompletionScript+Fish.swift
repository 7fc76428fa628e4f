import PlugboardEngine

extension CompletionScript {
  /// For `plugboard completion fish | source`, or saved in
  /// `~/.config/fish/completions/plugboard.fish`.
  static func fish(_ commands: [CommandSpec]) -> String {
    var lines = fishOpening
    for query in queries {
      lines += [
        "# \(query.summary)",
        "function __plugboard_\(query.noun)s",
        "    __plugboard_ask \(fishQuoted(query.forwardedWord)) \(query.argumentWords)",
        "end",
      ]
    }
    for spec in commands {
      lines.append(
        "complete -c plugboard -n __fish_use_subcommand -a \(fishQuoted(spec.name)) -d \(fishQuoted(spec.summary))"
      )
    }
    for spec in commands {
      let condition = fishQuoted("__fish_seen_subcommand_from \(spec.name)")
      for option in offeredOptions(spec) + [
        OptionSpec(name: "--help", valueName: nil, help: "show this help")
      ] {
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
      if positionalTakesPaths(spec) {
        // The script turns file completion off for every word (`-f`); these are files.
        lines.append("complete -c plugboard -n \(condition) -F")
      } else if positionalQuery(spec) != nil {
        lines.append("complete -c plugboard -n \(condition) -a '(__plugboard_types)'")
      } else if !positional.isEmpty {
        lines.append(
          "complete -c plugboard -n \(condition) -a \(fishQuoted(positional.joined(separator: " ")))")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The script's first lines: what it is, and `__plugboard_ask`, which the
  /// functions offering names call.
  private static let fishOpening = [
    "# fish completion for plugboard; load with: plugboard completion fish | source",
    "complete -c plugboard -f",
    "# Asks the plugboard being completed (the line's first word) for names only the deployment knows,",
    "# passing on the line's options named in $argv[1] (either spelling; the last of each).",
    "function __plugboard_ask",
    "    set -l tokens (commandline -opc)",
    "    set -l passed",
    "    for option in (string split ' ' -- $argv[1])",
    "        set -l value",
    "        for i in (seq 2 (count $tokens))",
    "            switch $tokens[$i]",
    "                case $option",
    "                    if test $i -lt (count $tokens)",
    "                        set value $tokens[(math $i + 1)]",
    "                    end",
    "                case \"$option=*\"",
    "                    set value (string replace -- \"$option=\" '' $tokens[$i])",
    "            end",
    "        end",
    "        if set -q value[1]",
    "            set passed $passed $option $value",
    "        end",
    "    end",
    "    command -q -- $tokens[1]; or return",
    "    $tokens[1] $argv[2..-1] $passed 2>/dev/null",
    "end",
  ]

  /// `text` in single quotes for fish, where `\` and `'` are escaped.
  static func fishQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
  }
}
