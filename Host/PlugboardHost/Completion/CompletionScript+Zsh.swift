extension CompletionScript {
  /// For `eval "$(plugboard completion zsh)"` (after `compinit`), or saved
  /// as `_plugboard` on `fpath`.
  static func zsh(_ commands: [CommandSpec]) -> String {
    let described = commands.map { bashQuoted("\(escapedForZsh($0.name)):\(escapedForZsh($0.summary))") }
    let cases = commands.map { spec in
      var specs = spec.options.map { option in
        let help = "[\(escapedForZsh(option.help))]"
        guard let valueName = option.valueName else { return bashQuoted(option.name + help) }
        let action =
          takesPath(option)
          ? "_files" : option.choices.isEmpty ? " " : "(\(option.choices.joined(separator: " ")))"
        return bashQuoted("\(option.name)=\(help):\(valueName):\(action)")
      }
      specs.append(bashQuoted("--help[show this help]"))
      let positional = positionalValues(spec)
      if let name = spec.positional {
        let action = positional.isEmpty ? " " : "(\(positional.joined(separator: " ")))"
        specs.append(bashQuoted("1:\(name):\(action)"))
      }
      return "      \(spec.name)) _arguments \(specs.joined(separator: " ")) ;;"
    }
    return """
      #compdef plugboard
      # zsh completion for plugboard; load with: eval "$(plugboard completion zsh)"
      _plugboard() {
        local -a commands
        commands=(\(described.joined(separator: " ")))
        if (( CURRENT == 2 )); then
          _describe -t commands 'plugboard command' commands
          return
        fi
        local command=$words[2]
        shift words
        (( CURRENT-- ))
        case $command in
      \(cases.joined(separator: "\n"))
        esac
      }
      compdef _plugboard plugboard

      """
  }

  /// `text` with the characters `_arguments` and `_describe` treat as
  /// syntax (`\`, `[`, `]`, `:`) escaped.
  static func escapedForZsh(_ text: String) -> String {
    var result = ""
    for character in text {
      if "\\[]:".contains(character) { result.append("\\") }
      result.append(character)
    }
    return result
  }
}
