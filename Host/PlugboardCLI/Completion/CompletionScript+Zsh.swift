import PlugboardEngine

extension CompletionScript {
  /// For `eval "$(plugboard completion zsh)"` (after `compinit`), or saved
  /// as `_plugboard` on `fpath`.
  static func zsh(_ commands: [CommandSpec]) -> String {
    let described = commands.map { bashQuoted("\(escapedForZsh($0.name)):\(escapedForZsh($0.summary))") }
    let cases = commands.map { spec in
      var specs = offeredOptions(spec).map { option in
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
        let action =
          positionalTakesPaths(spec)
          ? "_files"
          : positionalQuery(spec) != nil
            ? "_plugboard_types" : positional.isEmpty ? " " : "(\(positional.joined(separator: " ")))"
        specs.append(bashQuoted("\(spec.positionalRepeats ? "*" : "1"):\(escapedForZsh(name)):\(action)"))
      }
      return "      \(spec.name)) _arguments \(specs.joined(separator: " ")) ;;"
    }
    return """
      #compdef plugboard
      # zsh completion for plugboard; load with: eval "$(plugboard completion zsh)"
      \(zshAsk)
      \(queries.map(zshFunctions).joined(separator: "\n"))
      _plugboard() {
        # The whole line, for _plugboard_ask: `words` loses the
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

  /// `_plugboard_ask`, which the functions offering names call.
  private static let zshAsk = """
    # Asks the plugboard being completed (the line's first word) for names
    # only the deployment knows, one per line, passing on the line's
    # options named in $1 (either spelling; the last of each).
    _plugboard_ask() {
      local -A given
      local -a passed
      local i option
      for ((i = 2; i < ${#plugboard_words}; i++)); do
        for option in ${=1}; do
          case ${plugboard_words[i]} in
            $option) given[$option]="${plugboard_words[i + 1]}" ;;
            $option=*) given[$option]="${plugboard_words[i]#$option=}" ;;
          esac
        done
      done
      for option in ${(k)given}; do passed+=($option "${given[$option]}"); done
      shift
      "${plugboard_words[1]}" "$@" "${passed[@]}" 2>/dev/null
    }
    """

  /// For `query`: `_plugboard_<noun>_names`, which prints the names, and
  /// `_plugboard_<noun>s`, which offers them.
  private static func zshFunctions(_ query: Query) -> String {
    """
    # \(query.summary)
    _plugboard_\(query.noun)_names() {
      _plugboard_ask \(bashQuoted(query.forwardedWord)) \(query.argumentWords)
    }
    _plugboard_\(query.noun)s() {
      local -a names
      names=(${(f)"$(_plugboard_\(query.noun)_names)"})
      compadd -a names
    }
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
