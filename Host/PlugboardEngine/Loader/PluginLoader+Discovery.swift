import PlugboardDigest

/// Loading the plugins of the manifest's drop-in folders, after the listed
/// ones.
///
/// A discovered plugin's name is learnt from the plugin itself, so its code
/// runs before its settings apply: `dlopen` runs its initialisers and the
/// host calls its `plugboard_entry_v1` to read its descriptor, even when a
/// `plugins` entry of that name disables it or leaves it out of the
/// profile. Its assemblies (`make_bundle`) run only once its settings say
/// it loads. Everything before `dlopen` is as for a listed plugin: the
/// roots, owners and modes, links, ELF layout, and the pin, which is
/// matched by digest (a library whose digest is the `sha256` of a name-only
/// entry must report that entry's name; with `"requirePins": true` one
/// that matches no pin is refused unopened).
extension PluginLoader {
  /// What loading a manifest produced: every plugin's outcome (listed
  /// ones in manifest order, then discovered ones in discovery order), and
  /// the problems of drop-in folders that could not be read.
  package struct LoadResult {
    package var outcomes: [PluginOutcome]
    package var folderProblems: [DeploymentProblem]
  }

  /// Loads the listed plugins of `manifest`, then the plugins found in its
  /// `pluginFolders`.
  package func loadAll(_ manifest: Manifest, profile: String? = nil) -> LoadResult {
    var claimed: [String: String] = [:]
    // One for the whole bring-up: it remembers the folders it judged.
    let vetting = PluginVetting(manifest: manifest)
    // Whatever the loading found, the signatures it verified are kept,
    // and the private folder, if one was made, goes.
    defer {
      vetting.signatures.finish()
      vetting.origins.finish(announcingTo: progress)
    }
    var outcomes = loadListed(manifest, profile: profile, vetting: vetting, claimed: &claimed)
    guard !manifest.pluginFolders.isEmpty else { return LoadResult(outcomes: outcomes, folderProblems: []) }
    var folderProblems: [DeploymentProblem] = []
    var named: [String: String] = [:]
    for outcome in outcomes {
      if case .loaded(let plugin) = outcome { named[plugin.name] = plugin.file }
    }
    for (index, written) in manifest.pluginFolders.enumerated() {
      switch PluginDiscovery.libraries(in: written, index: index, manifest: manifest) {
      case .failure(let problem): folderProblems.append(problem)
      case .success(let files):
        for file in files {
          outcomes.append(
            discovered(
              file, folder: written, manifest: manifest, profile: profile, vetting: vetting,
              claimed: &claimed,
              named: &named))
        }
      }
    }
    let failed = Set(
      outcomes.compactMap { outcome -> Int? in
        guard case .failed(let entry, _) = outcome, entry.discoveredIn != nil else { return nil }
        return entry.index
      })
    for settings in manifest.discoveredSettings
    where named[settings.name] == nil && !failed.contains(settings.index) {
      guard settings.loads(inProfile: profile) else {
        outcomes.append(.disabled(settings))
        continue
      }
      let folders = manifest.pluginFolders.map { "\"\(Terminal.sanitize($0))\"" }.joined(separator: ", ")
      outcomes.append(
        .failed(
          settings,
          DeploymentProblem(
            stage: .locate, plugin: settings.name, file: manifest.path,
            message:
              "plugin '\(settings.name)' is named by plugins[\(settings.index)] without a path, and no library "
              + "in the drop-in folders (\(folders)) reports that name — add its library to a folder, or give "
              + "the entry a \"path\"")))
    }
    return LoadResult(outcomes: outcomes, folderProblems: folderProblems)
  }

  /// The outcome of the library `file` of the drop-in folder `folder`.
  /// `named` maps every name reported so far to its file.
  private func discovered(
    _ file: String, folder: String, manifest: Manifest, profile: String?, vetting: PluginVetting,
    claimed: inout [String: String], named: inout [String: String]
  ) -> PluginOutcome {
    if let refused = Self.refusedForItsName(file, folder: folder) { return refused }
    var entry = PluginEntry(index: -1, name: PluginDiscovery.provisionalName(of: file), path: file)
    entry.discoveredIn = folder
    if let problem = progress.quarantine[entry.name] { return .failed(entry, problem) }
    var current = entry
    var reported: [String: String] = named
    defer { named = reported }
    do throws(DeploymentProblem) {
      let located = try locate(entry, in: manifest, claimed: claimed, vetting: vetting)
      let canonical = located.path
      claimed[canonical] = entry.name
      let (pinned, digest) = try pinnedSettings(of: canonical, entry: entry, manifest: manifest)
      if let pinned {
        entry = pinned.discovered(at: file, in: folder)
        current = entry
      } else if let stale = stalePin(of: entry, digest: digest, canonical: canonical, manifest: manifest) {
        current = stale.entry
        throw stale.problem
      }
      let plugin = try load(entry, file: located, requirePins: manifest.requirePins, vetting: vetting) {
        (name: String) throws(DeploymentProblem) -> PluginEntry? in
        try adopt(
          name, file: file, folder: folder, canonical: canonical, pinned: pinned, manifest: manifest,
          reported: &reported, current: &current)
        return current.loads(inProfile: profile) ? current : nil
      }
      guard let plugin else { return .disabled(current) }
      return .loaded(plugin)
    } catch {
      return .failed(Self.blamed(current, file: file, folder: folder, manifest: manifest), error)
    }
  }

  /// The entry a failure of `file` is charged to: `current`, unless the
  /// library failed before it reported a name. Then it is the plugin of
  /// the name-only entry its file name matches, as far as anyone can tell,
  /// so that entry's failure is this one (with its `optional`), not a
  /// second "no library reports that name".
  private static func blamed(_ current: PluginEntry, file: String, folder: String, manifest: Manifest)
    -> PluginEntry
  {
    guard current.index < 0,
      let settings = manifest.discoveredSettings.first(where: { $0.name == current.name })
    else { return current }
    return settings.discovered(at: file, in: folder)
  }

  /// The refusal of a library whose file name holds what a terminal would
  /// act on; nil for any other.
  private static func refusedForItsName(_ file: String, folder: String) -> PluginOutcome? {
    let fileName = file.split(separator: "/").last.map(String.init) ?? file
    guard Terminal.holdsUnprintable(fileName) else { return nil }
    // A name the file system gave, written into plugboard's messages, could
    // begin a line of its own or reorder one: it is shown escaped, and
    // nothing of the file runs.
    let name = Terminal.sanitize(PluginDiscovery.provisionalName(of: file))
    var entry = PluginEntry(index: -1, name: name, path: Terminal.sanitize(file))
    entry.discoveredIn = folder
    return .failed(
      entry,
      .plugin(
        name, file: entry.path, stage: .locate,
        "has a control character or a bidirectional control in its file name; plugboard does not open it "
          + "— rename the file"))
  }

  /// With `requirePins`, a library that matches no pin while the
  /// name-only entry its file name matches pins another file: the library
  /// changed since it was pinned (a rebuild, or someone else's file), which
  /// "has no pin" would hide. That entry, and the refusal; nil otherwise.
  private func stalePin(of entry: PluginEntry, digest: String?, canonical: String, manifest: Manifest)
    -> (entry: PluginEntry, problem: DeploymentProblem)?
  {
    guard manifest.requirePins, let digest, let folder = entry.discoveredIn,
      let stale = manifest.discoveredSettings.first(where: { $0.name == entry.name }),
      let pin = stale.sha256
    else { return nil }
    return (
      stale.discovered(at: entry.path, in: folder),
      .plugin(
        stale.name, file: canonical, stage: .open,
        "does not match the pin plugins[\(stale.index)].sha256 of plugin '\(stale.name)', the entry its file "
          + "name matches: the pin is \(pin), the file's digest \(digest) — if this file is the one to trust, "
          + "write its digest into plugins[\(stale.index)].sha256 (plugboard pin lists it); otherwise replace "
          + "the file (it was not opened)")
    )
  }

  /// Takes the name a discovered plugin reported (`current` becomes the
  /// entry it loads as, its settings' when a name-only entry has them),
  /// once no other library reported it (`reported` records it) and its
  /// digest's pin, if any, is that name's.
  private func adopt(
    _ name: String, file: String, folder: String, canonical: String, pinned: PluginEntry?,
    manifest: Manifest, reported: inout [String: String], current: inout PluginEntry
  ) throws(DeploymentProblem) {
    if let earlier = reported[name] {
      throw .plugin(
        name, file: canonical, stage: .checkVersions,
        "reports the name '\(name)', as the plugin of \(earlier) does; two plugins cannot share a name — "
          + "remove one of the two files")
    }
    reported[name] = canonical
    let settings = manifest.discoveredSettings.first { $0.name == name }
    current =
      settings.map { $0.discovered(at: file, in: folder) }
      ?? {
        var renamed = PluginEntry(index: -1, name: name, path: file)
        renamed.discoveredIn = folder
        return renamed
      }()
    if let pinned, pinned.name != name {
      throw .plugin(
        name, file: canonical, stage: .checkVersions,
        "has the digest pinned by plugins[\(pinned.index)].sha256 for plugin '\(pinned.name)', but reports "
          + "the name '\(name)' — correct the entry's name")
    }
    if pinned == nil, let settings, settings.sha256 != nil {
      throw .plugin(
        name, file: canonical, stage: .open,
        "does not match the pin plugins[\(settings.index)].sha256 of plugin '\(name)'; its code already "
          + "ran to report its name — replace the file, or run 'plugboard pin'")
    }
  }

  /// The name-only entry whose `sha256` is the digest of `file`, when one
  /// is, and that digest; digests are computed only when some such entry
  /// has a pin.
  private func pinnedSettings(of file: String, entry: PluginEntry, manifest: Manifest)
    throws(DeploymentProblem)
    -> (entry: PluginEntry?, digest: String?)
  {
    let pins = manifest.discoveredSettings.filter { $0.sha256 != nil }
    guard !pins.isEmpty else { return (nil, nil) }
    switch SHA256.hash(file: file) {
    case .success(let digest): return (pins.first { $0.sha256 == digest.hex }, digest.hex)
    case .failure(let error):
      throw .plugin(entry.name, file: file, stage: .vet, "cannot be read to compute its digest: \(error)")
    }
  }
}
