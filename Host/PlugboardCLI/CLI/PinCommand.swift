import PlugboardDigest
import PlugboardEngine

/// `plugboard pin`: writes or refreshes the `sha256` pin of every plugin
/// in the manifest (enabled or not), and the `libraryPins` of every library
/// a pinned plugin would load beside it (see ``LibraryClosure``), from the
/// files as they are now, and the pins of the drop-in folders' libraries
/// (see ``planDropIns(_:in:text:)``). It only reads and hashes the libraries,
/// never opens them with `dlopen`, so no plugin code runs. The manifest is
/// rewritten atomically with every other byte as it was; if any library is
/// missing or unreadable nothing is written and the exit status is 1.
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
    var closure = LibraryClosure()
    for entry in manifest.plugins {
      switch digest(of: entry, in: manifest, vetting: vetting) {
      case .success(let (file, digest)):
        digests[entry.index] = digest
        console.out("\(digest)  \(entry.name)  \(file)")
        closure.add(
          neighboursOf: file, user: entry.name, everyProfile: entry.enabled && entry.profiles == nil)
      case .failure(let problem): problems.append(problem.text)
      }
    }
    let discovered = discoveredLibraries(in: manifest)
    for file in discovered {
      closure.add(neighboursOf: file, user: String(file.split(separator: "/").last ?? ""))
    }
    let dropIns = planDropIns(discovered, in: manifest, text: text)
    let libraries = libraryDigests(closure, in: manifest, vetting: vetting, problems: &problems)
    guard problems.isEmpty else {
      for problem in problems { console.err("plugboard: pin: \(problem)") }
      console.err("plugboard: pin: no pins written; \(manifest.path) is unchanged")
      return ExitStatus.problems.rawValue
    }
    let status = write(digests, dropIns: dropIns, libraries: libraries, of: manifest, text: text)
    for warning in dropIns.warnings { console.err("plugboard: pin: warning: \(warning)") }
    reportUnpinnable(closure, requirePins: manifest.requirePins)
    reportShadowed(closure)
    return status
  }

  /// The copies a plugin ships that the loader never maps, since an
  /// earlier plugin maps a different library of that name: pinning one
  /// would vouch for a file that does not run. The advice keeps a copy
  /// beside the plugin, since loading refuses a plugin that has none.
  private func reportShadowed(_ closure: LibraryClosure) {
    for library in closure.shadowed {
      let users = library.users.map { "'\(Terminal.sanitize($0))'" }.joined(separator: ", ")
      let name = library.file.split(separator: "/").last.map(String.init) ?? library.file
      let runs = Terminal.sanitize(library.entry ?? "")
      console.err(
        "plugboard: pin: warning: library \(Terminal.sanitize(library.file)) (needed by \(users)) is not pinned: "
          + "it never runs, since a plugin loaded before \(users) maps \(Terminal.sanitize(name)) first, from "
          + "\(runs), and the dynamic loader maps a name once; the two files differ — replace the copy with one "
          + "identical to \(runs) (keep a copy: without one, \(users) \(library.users.count == 1 ? "is" : "are") "
          + "refused), or rebuild \(users) against that library")
    }
  }

  /// The pins `pin` writes for the drop-in folders' libraries.
  private struct DropInPins {
    /// New digests of name-only entries, by their index in `plugins`.
    var refreshed: [Int: String] = [:]
    /// Name-only entries to add, named after their files.
    var added: [(name: String, digest: String)] = []
    var changes: [Change] = []
    var warnings: [String] = []
  }

  /// The pin of each drop-in library, listed on standard output. A
  /// library's name is what it reports, learnt only by running it, which
  /// `pin` never does; so a library is pinned by the name-only entry that
  /// already pins its digest, else by the one named after its file
  /// (`libAnalytics.so`: `Analytics`), whose pin is refreshed (a rebuilt
  /// library), else by a new entry of that name. The loader holds a
  /// library to the entry whose digest it has, and refuses it, naming both
  /// names, when it reports another: the guess is checked, never trusted.
  private func planDropIns(_ files: [String], in manifest: Manifest, text: [UInt8]) -> DropInPins {
    var plan = DropInPins()
    var used = Set<Int>()
    let listed = Set(manifest.plugins.map(\.name))
    let nextIndex = ManifestPinEditor.entryCount(in: text) ?? manifest.plugins.count
    for file in files {
      guard case .success(let hash) = SHA256.hash(file: file) else {
        plan.warnings.append("\(Terminal.sanitize(file)) cannot be read; not pinned")
        continue
      }
      let digest = hash.hex
      let name = PluginDiscovery.provisionalName(of: file)
      let shown = Terminal.sanitize(file)
      if let entry = manifest.discoveredSettings.first(where: {
        $0.sha256 == digest && !used.contains($0.index)
      }) {
        used.insert(entry.index)
        plan.changes.append(.unchanged)
        console.out("\(digest)  \(entry.name)  \(shown)  (discovered; pinned by plugins[\(entry.index)])")
      } else if let entry = manifest.discoveredSettings.first(where: { $0.name == name }),
        !used.contains(entry.index)
      {
        used.insert(entry.index)
        plan.refreshed[entry.index] = digest
        plan.changes.append(entry.sha256 == nil ? .new : .changed)
        console.out("\(digest)  \(entry.name)  \(shown)  (discovered; pinned by plugins[\(entry.index)])")
      } else if !Self.isFree(name, listed: listed, in: manifest, plan: plan) {
        console.out("\(digest)  -  \(shown)  (discovered; not pinned)")
        plan.warnings.append(
          "\(shown) is not pinned: the name its file gives is not one a new entry can have (it is empty, "
            + "unprintable, or another entry's) — give it a { \"name\": …, \"sha256\": … } entry with the "
            + "digest above, named as `plugboard list` shows it")
      } else {
        plan.added.append((name, digest))
        plan.changes.append(.new)
        console.out(
          "\(digest)  \(name)  \(shown)  (discovered; pinned as plugins[\(nextIndex + plan.added.count - 1)], "
            + "named after its file)")
      }
    }
    for entry in manifest.discoveredSettings where entry.sha256 != nil && !used.contains(entry.index) {
      plan.warnings.append(
        "plugins[\(entry.index)] pins '\(Terminal.sanitize(entry.name))' to a digest no library in the drop-in "
          + "folders has, and no library there is named after it: remove the entry, or put its library in a "
          + "drop-in folder")
    }
    return plan
  }

  /// Whether a new entry may be called `name`, the name a drop-in
  /// library's file gives: printable, and no entry's, listed or planned.
  private static func isFree(_ name: String, listed: Set<String>, in manifest: Manifest, plan: DropInPins)
    -> Bool
  {
    !name.isEmpty && Terminal.sanitize(name) == name && !listed.contains(name)
      && !plan.added.contains(where: { $0.name == name })
      && !manifest.discoveredSettings.contains(where: { $0.name == name })
  }

  /// The libraries no pin can hold (found through a run path entry other
  /// than `$ORIGIN`, outside the system's and the toolchain's folders):
  /// they load from their files, or with `requirePins` not at all.
  private func reportUnpinnable(_ closure: LibraryClosure, requirePins: Bool) {
    for library in closure.unpinnable {
      let users = library.users.map { "'\(Terminal.sanitize($0))'" }.joined(separator: ", ")
      let consequence =
        requirePins
        ? "the manifest sets \"requirePins\": true, so \(users) will be refused"
        : "it loads unpinned from that file"
      console.err(
        "plugboard: pin: warning: library \(Terminal.sanitize(library.file)) (needed by \(users)) is found "
          + "through the run path entry '\(Terminal.sanitize(library.entry ?? ""))', where the dynamic loader "
          + "maps that file and not a sealed copy, so it cannot be pinned and \(consequence) — ship it beside "
          + "the plugin and rebuild with $ORIGIN as that run path entry, or install it in a system folder")
    }
  }

  /// The canonical files of the drop-in folders' libraries, whose
  /// neighbours are pinned as the listed plugins' are.
  private func discoveredLibraries(in manifest: Manifest) -> [String] {
    var files: [String] = []
    for (index, folder) in manifest.pluginFolders.enumerated() {
      guard case .success(let found) = PluginDiscovery.libraries(in: folder, index: index, manifest: manifest)
      else { continue }
      files += found.map { FilePath.canonical($0) ?? $0 }
    }
    return files
  }

  /// Each library of `closure` as `libraryPins` will hold it (its key as
  /// already written, or as ``LibraryClosure/key(for:directory:)`` writes
  /// it) with its digest, listed on standard output; a library that fails
  /// the file check or cannot be read adds a problem instead: a pin of a
  /// file someone else can write would vouch for whatever they put there.
  private func libraryDigests(
    _ closure: LibraryClosure, in manifest: Manifest, vetting: PluginVetting, problems: inout [String]
  ) -> [(key: String, digest: String)] {
    var pins: [(key: String, digest: String)] = []
    for library in closure.libraries {
      let file = library.file
      let users = library.users.map { "'\($0)'" }.joined(separator: ", ")
      let what = "library \(Terminal.sanitize(file)) (needed by \(users))"
      if let problem = vetting.permissions(of: file) {
        problems.append("\(what) \(problem); not pinned")
        continue
      }
      switch SHA256.hash(file: file) {
      case .failure(let failure): problems.append("\(what) cannot be read: \(failure)")
      case .success(let digest):
        let key =
          vetting.libraryPins.pin(for: file)?.path
          ?? LibraryClosure.key(for: file, directory: manifest.directory)
        pins.append((key, digest.hex))
        console.out(
          "\(digest.hex)  -  \(Terminal.sanitize(file))  (library of \(library.users.joined(separator: ", ")))"
        )
      }
    }
    return pins
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
      ?? vetting.permissions(of: file) ?? vetting.closureProblem(of: file)
    {
      return .failure(Problem(text: "plugin '\(entry.name)' (\(file)) \(problem); not pinned"))
    }
    return SHA256.hash(file: file)
      .map { (file, $0.hex) }
      .mapError { Problem(text: "plugin '\(entry.name)' (\(file)) cannot be read: \($0)") }
  }

  private func write(
    _ digests: [Int: String], dropIns: DropInPins, libraries: [(key: String, digest: String)],
    of manifest: Manifest, text: [UInt8]
  ) -> ExitStatus.RawValue {
    let written = Dictionary(
      manifest.libraryPins.map { ($0.path, $0.sha256) }, uniquingKeysWith: { first, _ in first })
    let changes =
      manifest.plugins.map { entry -> Change in
        guard let pin = entry.sha256 else { return .new }
        return pin == digests[entry.index] ? .unchanged : .changed
      }
      + dropIns.changes
      + libraries.map { library -> Change in
        guard let pin = written[library.key] else { return .new }
        return pin == library.digest ? .unchanged : .changed
      }
    let removed = manifest.libraryPins.filter { pin in !libraries.contains { $0.key == pin.path } }.count
    let counts = [Change.new, .changed, .unchanged].map { change in
      "\(changes.filter { $0 == change }.count) \(change.rawValue)"
    }
    guard changes.contains(where: { $0 != .unchanged }) || removed > 0 else {
      console.out("the pins in \(manifest.path) are up to date (\(changes.count) unchanged)")
      return ExitStatus.healthy.rawValue
    }
    let librariesChanged =
      removed > 0 || libraries.contains { written[$0.key] != $0.digest }
    guard
      let edited = ManifestPinEditor.apply(digests.merging(dropIns.refreshed) { $1 }, to: text)
        .flatMap({ ManifestPinEditor.appending(dropIns.added, to: $0) })
        .flatMap({ librariesChanged ? ManifestLibraryPinEditor.apply(libraries, to: $0) : $0 })
    else {
      console.err(
        "plugboard: pin: internal error: cannot find the plugins in \(manifest.path); it is unchanged")
      return ExitStatus.problems.rawValue
    }
    if case .failure(let failure) = AtomicFile.replace(manifest.path, with: edited, original: text) {
      let again = if case .changed = failure { " — run plugboard pin again" } else { "" }
      console.err("plugboard: pin: cannot rewrite \(manifest.path): \(failure); it is unchanged\(again)")
      return ExitStatus.problems.rawValue
    }
    let dropped =
      removed == 0 ? "" : "; removed \(removed) library \(removed == 1 ? "pin" : "pins") no plugin needs"
    console.out(
      "wrote \(changes.count) pins to \(manifest.path): \(counts.joined(separator: ", "))\(dropped)")
    return ExitStatus.healthy.rawValue
  }
}
