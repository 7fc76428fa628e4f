import PlugboardEngine

/// A command line plugboard cannot act on (exit status 2).
struct UsageError: Error, Equatable {
  let message: String
  /// The command whose help explains the mistake, if one was recognised.
  let command: String?

  /// The lines printed on stderr.
  var lines: [String] {
    let help = command.map { "plugboard \($0) --help" } ?? "plugboard --help"
    return ["plugboard: \(message)", "Run '\(help)' for usage."]
  }
}
