import PlugboardEngine

/// `plugboard completion SHELL`: prints the completion script for bash,
/// zsh or fish on standard output, for the shell to load.
struct CompletionCommand {
  let options: ParsedOptions
  let console: any Console

  func execute() -> ExitStatus.RawValue {
    if options.isSet(.profileNames) {
      for name in Self.profileNames(manifest: options.manifest) { console.out(name) }
      return ExitStatus.healthy.rawValue
    }
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

  /// Characters a shell reads as syntax in a word.
  private static let shellSyntax = #""'\`$*?[]{}()<>|&;#~!=:,"#

  /// The profiles the manifest declares, in written order: only names a
  /// shell word holds as they are (``isShellWord(_:)``), since they are
  /// offered for the line being typed. None when the manifest cannot be
  /// read: a completion prints no errors.
  static func profileNames(manifest: String?) -> [String] {
    guard case .success(let manifest) = ManifestReader.read(argument: manifest) else { return [] }
    return manifest.profiles.map(\.name).filter(isShellWord)
  }

  /// Whether a shell word holds `name` as it is (no space, quote,
  /// backslash, glob or control character): only such names are offered
  /// for the line being typed.
  static func isShellWord(_ name: String) -> Bool {
    name.unicodeScalars.allSatisfy { scalar in
      !Terminal.isUnprintable(scalar) && !scalar.properties.isWhitespace
        && !Self.shellSyntax.unicodeScalars.contains(scalar)
    }
  }
}
