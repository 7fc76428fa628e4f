extension CompletionScript {
  /// For `plugboard completion fish | source`, or saved in
  /// `~/.config/fish/completions/plugboard.fish`.
  static func fish(_ commands: [CommandSpec]) -> String {
    var lines = [
      "# fish completion for plugboard; load with: plugboard completion fish | source",
      "complete -c plugboard -f",
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
        let choices = option.choices.isEmpty ? "" : " -a \(fishQuoted(option.choices.joined(separator: " ")))"
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
