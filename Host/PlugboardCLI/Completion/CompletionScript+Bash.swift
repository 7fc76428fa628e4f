import PlugboardEngine

extension CompletionScript {
  /// For `eval "$(plugboard completion bash)"` or a file in
  /// `bash_completion.d`. Words before the command that are options (and
  /// their values) are skipped, as the parser accepts them there.
  static func bash(_ commands: [CommandSpec]) -> String {
    let options = allOptions(commands)
    let valued = options.filter { $0.valueName != nil }.map(\.name)
    let paths = options.filter(takesPath).map(\.name)
    let choices = options.filter { !$0.choices.isEmpty }.map { option in
      "      \(option.name)) COMPREPLY=($(compgen -W \(bashQuoted(option.choices.joined(separator: " "))) -- \"$cur\")); return 0 ;;"
    }
    let otherValues = options.filter {
      $0.valueName != nil && !takesPath($0) && $0.choices.isEmpty && $0.name != OptionSpec.profile.name
    }.map(\.name)
    let cases = commands.map(bashCase)
    return """
      # bash completion for plugboard; load with: eval "$(plugboard completion bash)"
      \(bashAsk)
      _plugboard() {
        local cur="${COMP_WORDS[COMP_CWORD]}" prev="" command="" opts="" values="" i
        if ((COMP_CWORD > 0)); then prev="${COMP_WORDS[COMP_CWORD - 1]}"; fi
        for ((i = 1; i < COMP_CWORD; i++)); do
          case "${COMP_WORDS[i]}" in
            \(valued.joined(separator: "|"))) ((i++)) ;;
            -*) ;;
            *) command="${COMP_WORDS[i]}"; break ;;
          esac
        done
        case "$prev" in
          \(paths.joined(separator: "|"))) COMPREPLY=($(compgen -f -- "$cur")); return 0 ;;
      \(choices.joined(separator: "\n"))
          \(OptionSpec.profile.name))
            # The profiles of the manifest on the line, from the plugboard being completed.
            COMPREPLY=($(compgen -W "$(_plugboard_ask \(bashQuoted(profileQuery.forwardedWord)) \(profileQuery.argumentWords))" -- "$cur"))
            return 0 ;;
          \(otherValues.joined(separator: "|"))) COMPREPLY=(); return 0 ;;
        esac
        case "$command" in
          "")
            COMPREPLY=($(compgen -W \(bashQuoted((commands.map(\.name) + ["--help", "--version"] + sharedOptions(commands).map(\.name)).joined(separator: " "))) -- "$cur"))
            return 0 ;;
      \(cases.joined(separator: "\n"))
          *) COMPREPLY=(); return 0 ;;
        esac
        if [[ "$cur" != -* && -n "$values" ]]; then
          COMPREPLY=($(compgen -W "$values" -- "$cur"))
        else
          COMPREPLY=($(compgen -W "$opts" -- "$cur"))
        fi
        return 0
      }
      complete -F _plugboard plugboard

      """
  }

  /// The `case` arm of `spec`'s command: the options it offers and the
  /// values of its positional argument.
  private static func bashCase(_ spec: CommandSpec) -> String {
    let words = offeredOptions(spec).map(\.name) + ["--help"]
    let positional = positionalValues(spec)
    var values = positional.isEmpty ? "" : #" values=\#(bashQuoted(positional.joined(separator: " ")));"#
    if let query = positionalQuery(spec) {
      // Only for a word that is no option: asking brings the deployment up.
      values =
        #" if [[ "$cur" != -* ]]; then values="$(_plugboard_ask \#(bashQuoted(query.forwardedWord)) "#
        + #"\#(query.argumentWords))"; fi;"#
    }
    if positionalTakesPaths(spec) {
      values = #" if [[ "$cur" != -* ]]; then COMPREPLY=($(compgen -f -- "$cur")); return 0; fi;"#
    }
    return "    \(spec.name)) opts=\(bashQuoted(words.joined(separator: " ")));\(values) ;;"
  }

  /// `_plugboard_ask`, which the script's other functions call.
  private static let bashAsk = """
    # Asks the plugboard being completed (the line's first word) for names
    # only the deployment knows, passing on the line's options named in $1
    # (the last of each, as the parser would refuse two).
    _plugboard_ask() {
      local forwarded=" $1 " passed=() j
      local -A given=()
      shift
      for ((j = 1; j < COMP_CWORD - 1; j++)); do
        if [[ "$forwarded" == *" ${COMP_WORDS[j]} "* ]]; then given["${COMP_WORDS[j]}"]="${COMP_WORDS[j + 1]}"; fi
      done
      for j in "${!given[@]}"; do passed+=("$j" "${given[$j]}"); done
      "${COMP_WORDS[0]}" "$@" "${passed[@]}" 2>/dev/null
    }
    """

  /// `text` in single quotes for bash.
  static func bashQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }
}
