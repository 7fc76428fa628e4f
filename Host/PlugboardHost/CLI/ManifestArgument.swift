/// The manifest `--manifest` names (or `./plugins.json`), for the commands
/// that analyse a deployment; a manifest that cannot be read is reported
/// on stderr, and the command exits with status 1.
enum ManifestArgument {
  static func read(_ options: ParsedOptions, console: any Console) -> Manifest? {
    switch ManifestReader.read(argument: options.manifest) {
    case .success(let manifest): return manifest
    case .failure(let error):
      for problem in error.problems { console.err("plugboard: \(problem)") }
      return nil
    }
  }
}
