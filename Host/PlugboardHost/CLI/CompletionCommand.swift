/// `plugboard completion SHELL`: prints the completion script for bash,
/// zsh or fish on standard output, for the shell to load.
struct CompletionCommand {
  let options: ParsedOptions
  let console: any Console

  func execute() -> ExitStatus.RawValue {
    let shell = options.positionals.first ?? ""
    guard let script = CompletionScript.script(for: shell) else {
      let error = UsageError(
        message: "no completion for the shell '\(Terminal.sanitize(shell))'; expected one of "
          + CompletionScript.shells.map { "'\($0)'" }.joined(separator: ", "),
        command: CommandSpec.completion.name)
      for line in error.lines { console.err(line) }
      return ExitStatus.misuse.rawValue
    }
    console.out(String(script.dropLast()))
    return ExitStatus.healthy.rawValue
  }
}
