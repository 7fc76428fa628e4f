/// The open stage: a pinned plugin through ``PinnedLibrary``, a signed one
/// from the copy its signature was checked over, any other through its
/// folder held open (``HeldFolder``) unless the manifest requires pins.
extension PluginLoader {
  /// `entry`'s library at `file` (absolute and canonical; `identity` the
  /// device and inode of the file vetted), opened; the libraries that
  /// brought into the process are recorded as its.
  /// - Throws: at stage `open`: the pin, or a neighbour's in `libraries`,
  ///   does not match (both digests shown), `requirePins` is set and the
  ///   plugin or a neighbour has no pin, an unpinned plugin's name in its
  ///   folder leads to another file than the one vetted, or `dlopen` failed
  ///   (explained with `needs`, see ``LoadFailureExplanation``).
  func open(
    _ entry: PluginEntry, _ file: String, identity: FileIdentity?, held: HeldFolder? = nil, requirePins: Bool,
    libraries: LibraryPins, needs: PluginNeeds?, signed: SignedLibraries? = nil, origins: PrivateOrigins
  ) throws(DeploymentProblem) -> DynamicLibrary {
    defer { LoadedLibraries.attribute(to: entry.name, file: file) }
    guard let pin = entry.sha256 else {
      // A debug plugin under a release host fails whatever its pin says.
      if requirePins, let debug = LoadFailureExplanation.debugBuildProblem(needs) {
        throw .plugin(entry.name, file: file, stage: .open, debug + " (it was not opened)")
      }
      guard !requirePins else {
        throw .plugin(
          entry.name, file: file, stage: .open,
          "has no pin and the manifest sets \"requirePins\": true — run 'plugboard pin' to pin every "
            + (entry.index < 0
              ? "listed plugin, or add an entry with its name and \"sha256\" to plugins (it was not opened)"
              : "plugin, or add plugins[\(entry.index)].sha256"))
      }
      if let signed { return try openSigned(entry, file, signed: signed, needs: needs, origins: origins) }
      // The folder the closure was vetted through, held since.
      let folder: HeldFolder
      if let held { folder = held } else { folder = try hold(entry, file: file, identity: identity) }
      switch folder.open() {
      case .success(let library): return library
      case .failure(let error):
        throw .plugin(
          entry.name, file: file, stage: .open,
          LoadFailureExplanation.detail(error.text, file: file, needs: needs), systemMessage: error.text)
      }
    }
    return try opened(
      PinnedLibrary.open(
        file, expected: pin, libraries: libraries, requirePins: requirePins, origins: origins,
        progress: progress),
      entry, file, needs: needs, pin: "plugins[\(entry.index)].sha256")
  }

  /// The folder of the plugin at `elf`, held for the loader (``HeldFolder``)
  /// while its name there is still the file `elf` opened.
  /// - Throws: at stage `open`: the name leads to another file, or the
  ///   folder cannot be opened.
  func hold(_ entry: PluginEntry, file elf: ELFFile) throws(DeploymentProblem) -> HeldFolder {
    try hold(entry, file: elf.path, identity: elf.identity)
  }

  private func hold(_ entry: PluginEntry, file: String, identity: FileIdentity?) throws(DeploymentProblem)
    -> HeldFolder
  {
    switch identity.map({ HeldFolder.hold(file, vetted: $0) }) {
    case .success(let folder): return folder
    case .failure(.changed), nil:
      throw .plugin(
        entry.name, file: file, stage: .open,
        "was replaced after it was vetted: its name in \(Terminal.sanitize(FilePath.directory(of: file))) "
          + "leads to another file than the one vetted (it was not opened) — if the change is yours, "
          + "run the command again")
    case .failure(.unopenable(let failure)):
      throw .plugin(
        entry.name, file: file, stage: .open,
        "cannot be opened through its folder: \(failure) (it was not opened)",
        systemMessage: failure.reason)
    }
  }

  /// The library a sealed copy was opened as, or the problem at stage
  /// `open`: a `dlopen` failure explained with `needs`, any other with
  /// `pin`, where what vouched for the copy is written.
  func opened(
    _ result: Result<DynamicLibrary, PinnedLibraryError>, _ entry: PluginEntry, _ file: String,
    needs: PluginNeeds?, pin: String
  ) throws(DeploymentProblem) -> DynamicLibrary {
    switch result {
    case .success(let library): return library
    case .failure(.dlopen(let text)):
      throw .plugin(
        entry.name, file: file, stage: .open, LoadFailureExplanation.detail(text, file: file, needs: needs),
        systemMessage: text)
    case .failure(let failure):
      throw .plugin(
        entry.name, file: file, stage: .open, failure.detail(pin: pin), systemMessage: failure.systemMessage)
    }
  }
}
