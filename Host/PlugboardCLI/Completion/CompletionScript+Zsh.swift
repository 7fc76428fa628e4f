import PlugboardEngine

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
          ? "_files"
          : option.name == OptionSpec.profile.name
            ? "_plugboard_profiles"
            : option.choices.isEmpty ? " " : "(\(option.choices.joined(separator: " ")))"
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
      # The profiles the manifest on the line declares (its --manifest, or
      # plugins.json here), one per line, from the plugboard being completed.
      _plugboard_profile_names() {
        local -a manifest
        local i
        for ((i = 2; i < ${#plugboard_words}; i++)); do
          case ${plugboard_words[i]} in
            \(OptionSpec.manifest.name)) manifest=(\(OptionSpec.manifest.name) "${plugboard_words[i + 1]}") ;;
            \(OptionSpec.manifest.name)=*) manifest=(\(OptionSpec.manifest.name) "${plugboard_words[i]#\(OptionSpec.manifest.name)=}") ;;
          esac
        done
        "${plugboard_words[1]}" completion \(CompletionCommand.profileNamesOption) "${manifest[@]}" 2>/dev/null
      }
      _plugboard_profiles() {
        local -a profiles
        profiles=(${(f)"$(_plugboard_profile_names)"})
        compadd -a profiles
      }
      _plugboard() {
        # The whole line, for _plugboard_profile_names: `words` loses the
        # program and the options before the command below.
        local -a plugboard_words
        plugboard_words=("${words[@]}")
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
