/// Why a manifest could not be read. Each case renders to the text the CLI
/// prints after the manifest's path.
public enum ManifestError: Error, Equatable, Sendable {
  /// No file at `path`; `origin` says why plugboard looked there.
  case missing(path: String, origin: ManifestOrigin)
  /// The file exists but could not be read (a directory, no permission…).
  case unreadable(path: String, reason: String)
  /// The file, or a folder above it, can be changed by someone other than
  /// root and the user running plugboard; `reason` continues "it …"
  /// with the owner, the mode and the fix (see ``FileTrust``).
  case untrusted(path: String, reason: String)
  /// The file is not valid JSON.
  case syntax(path: String, JSONSyntaxError)
  /// Valid JSON that does not describe a deployment; every problem found.
  case invalid(path: String, [ManifestProblem])

  /// The absolute path of the manifest concerned.
  public var path: String {
    switch self {
    case .missing(let path, _), .unreadable(let path, _), .untrusted(let path, _), .syntax(let path, _),
      .invalid(let path, _):
      path
    }
  }

  /// One line per problem, each naming the manifest and the place in it.
  /// Each is one line, whatever it quotes from the file or the disk (a
  /// declared profile's name, the manifest's own path): escaped here, once
  /// for every message.
  public var lines: [String] { unescapedLines.map(Terminal.sanitize) }

  private var unescapedLines: [String] {
    switch self {
    case .missing(let path, let origin):
      ["no manifest at \(path) (\(origin.explanation))"]
    case .unreadable(let path, let reason):
      ["cannot read the manifest \(path): \(reason)"]
    case .untrusted(let path, let reason):
      ["refusing the manifest \(path): it \(reason)"]
    case .syntax(let path, let error):
      ["\(path):\(error.line):\(error.column): not valid JSON: \(error.message)"]
    case .invalid(let path, let problems):
      problems.map { "\(path): \($0)" }
    }
  }
}

/// How the manifest's path was chosen, for the "missing manifest" message.
public enum ManifestOrigin: Equatable, Sendable {
  /// The default, `plugins.json` in the current directory.
  case defaultLocation
  /// Given on the command line as `--manifest <argument>`.
  case option(String)
  /// Chosen by a program embedding the host: the path it passed to
  /// `EmbeddedDeployment.bringUp(manifest:)`, or nil for the default.
  /// Its users never typed `--manifest`, so no message tells them to.
  case embedding(String?)

  var explanation: String {
    switch self {
    case .defaultLocation:
      "looked for the default ./plugins.json in the current directory; pass --manifest PATH to use another"
    case .option(let argument): "from --manifest \(argument)"
    case .embedding(nil): "looked for the default ./plugins.json in the current directory"
    case .embedding(let path?): "the manifest path \(path) this program was given"
    }
  }

  var isEmbedding: Bool {
    if case .embedding = self { return true }
    return false
  }
}
