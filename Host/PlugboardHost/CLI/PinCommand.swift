/// `plugboard pin`: writes or refreshes the `sha256` pin of every plugin
/// in the manifest (enabled or not), from the files as they are now, and
/// lists the drop-in folders' libraries with their digests (their pins are
/// the operator's to write; see ``reportDiscovered(in:)``). It
/// only reads and hashes the libraries, never opens them with `dlopen`, so
/// no plugin code runs. The manifest is rewritten atomically with every
/// other byte as it was; if any library is missing or unreadable nothing
/// is written and the exit status is 1.
struct PinCommand {
  let options: ParsedOptions
  let console: any Console

  /// What became of one plugin's pin.
  private enum Change: String {
    case new, changed, unchanged
  }

  func execute() -> ExitStatus.RawValue {
    let manifest: Manifest
    let text: [UInt8]
    let read = ManifestReader.location(argument: options.manifest).flatMap {
      ManifestReader.readWithText(path: $0.path, origin: $0.origin)
    }
    switch read {
    case .success(let read): (manifest, text) = read
    case .failure(let error):
      for problem in error.problems { console.err("plugboard: \(problem)") }
      return ExitStatus.problems.rawValue
    }
    var digests: [Int: String] = [:]
    var problems: [String] = []
    let vetting = PluginVetting(manifest: manifest)
    for entry in manifest.plugins {
      switch digest(of: entry, in: manifest, vetting: vetting) {
      case .success(let (file, digest)):
        digests[entry.index] = digest
        console.out("\(digest)  \(entry.name)  \(file)")
      case .failure(let problem): problems.append(problem.text)
      }
    }
    guard problems.isEmpty else {
      for problem in problems { console.err("plugboard: pin: \(problem)") }
      console.err("plugboard: pin: no pins written; \(manifest.path) is unchanged")
      return ExitStatus.problems.rawValue
    }
    let status = write(digests, of: manifest, text: text)
    reportDiscovered(in: manifest)
    return status
  }

  /// The libraries of the drop-in folders, with their digests and the
  /// name-only entries that pin them. Their pins are not written: which
  /// entry a library belongs to is the name it reports, learnt only by
  /// running it, which `pin` never does; so the operator writes them, and
  /// is told what is unpinned or stale.
  private func reportDiscovered(in manifest: Manifest) {
    let pinned = manifest.discoveredSettings.filter { $0.sha256 != nil }
    var matched = Set<Int>()
    var unpinned = 0
    for (index, folder) in manifest.pluginFolders.enumerated() {
      guard case .success(let files) = PluginDiscovery.libraries(in: folder, index: index, manifest: manifest)
      else { continue }
      for found in files {
        let file = FilePath.canonical(found) ?? found
        guard case .success(let digest) = SHA256.hash(file: file) else {
          console.err("plugboard: pin: warning: \(file) cannot be read")
          continue
        }
        if let entry = pinned.first(where: { $0.sha256 == digest.hex }) {
          matched.insert(entry.index)
          console.out(
            "\(digest.hex)  \(entry.name)  \(file)  (discovered; pinned by plugins[\(entry.index)])")
        } else {
          unpinned += 1
          console.out("\(digest.hex)  -  \(file)  (discovered; not pinned)")
        }
      }
    }
    for entry in pinned where !matched.contains(entry.index) {
      console.err(
        "plugboard: pin: warning: plugins[\(entry.index)] pins '\(entry.name)' to a digest no library in the "
          + "drop-in folders has: update its \"sha256\" to the library's digest above")
    }
    if unpinned > 0 {
      let count = unpinned == 1 ? "1 library" : "\(unpinned) libraries"
      console.err(
        "plugboard: pin: warning: \(count) in the drop-in folders not pinned: pin cannot learn a library's "
          + "name without running it, so give each a { \"name\": …, \"sha256\": … } entry with the digest above "
          + "(its name is what `plugboard list` shows for it)")
    }
  }

  private struct Problem: Error {
    let text: String
  }

  /// The canonical file of `entry` and its SHA-256.
  /// The file is vetted as the loader vets it first: a pin of a file
  /// someone else can write, or one outside the plugin roots, would vouch
  /// for whatever they put there.
  private func digest(of entry: PluginEntry, in manifest: Manifest, vetting: PluginVetting)
    -> Result<(String, String), Problem>
  {
    let absolute = manifest.absolutePath(of: entry)
    guard let file = FilePath.canonical(absolute) else {
      let origin =
        entry.path.hasPrefix("/")
        ? "" : " (plugins[\(entry.index)].path is relative to the manifest's folder, \(manifest.directory))"
      return .failure(Problem(text: "plugin '\(entry.name)' (\(absolute)) does not exist\(origin)"))
    }
    if let problem = vetting.placement(absolute: absolute, canonical: file, entry: entry)
      ?? vetting.permissions(of: file)
    {
      return .failure(Problem(text: "plugin '\(entry.name)' (\(file)) \(problem); not pinned"))
    }
    return SHA256.hash(file: file)
      .map { (file, $0.hex) }
      .mapError { Problem(text: "plugin '\(entry.name)' (\(file)) cannot be read: \($0)") }
  }

  private func write(_ digests: [Int: String], of manifest: Manifest, text: [UInt8]) -> ExitStatus.RawValue {
    let changes = manifest.plugins.map { entry -> Change in
      guard let pin = entry.sha256 else { return .new }
      return pin == digests[entry.index] ? .unchanged : .changed
    }
    let counts = [Change.new, .changed, .unchanged].map { change in
      "\(changes.filter { $0 == change }.count) \(change.rawValue)"
    }
    guard changes.contains(where: { $0 != .unchanged }) else {
      console.out("the pins in \(manifest.path) are up to date (\(changes.count) unchanged)")
      return ExitStatus.healthy.rawValue
    }
    guard let edited = ManifestPinEditor.apply(digests, to: text) else {
      console.err(
        "plugboard: pin: internal error: cannot find the plugins in \(manifest.path); it is unchanged")
      return ExitStatus.problems.rawValue
    }
    if case .failure(let failure) = AtomicFile.replace(manifest.path, with: edited, original: text) {
      let again = if case .changed = failure { " — run plugboard pin again" } else { "" }
      console.err("plugboard: pin: cannot rewrite \(manifest.path): \(failure); it is unchanged\(again)")
      return ExitStatus.problems.rawValue
    }
    console.out("wrote \(changes.count) pins to \(manifest.path): \(counts.joined(separator: ", "))")
    return ExitStatus.healthy.rawValue
  }
}
