import PlugboardABI
import PlugboardKit

#if canImport(Glibc)
  import Glibc
#endif

/// Loads the plugins a manifest names, one after the other, checking each
/// at every stage before the next touches it:
///
/// locate (the file exists and is a regular file) → open (it is an ELF
/// shared object for this machine; the libraries it needs are found by its
/// own run path, not only because an earlier plugin loaded one of that
/// name; `dlopen`, an undefined symbol explained) → find entry
/// (`plugboard_entry_v1`, or a clear refusal of another ABI) → check
/// versions (the descriptor's compiler and PlugboardKit versions and name,
/// and the stamps of the shared modules it was compiled against, see
/// ``SharedModuleStamps``) → assemble (`make_bundle`, which is only now called, and `as?
/// PluginBundle`).
///
/// A failure becomes that entry's ``PluginOutcome/failed(_:_:)`` and the
/// loader goes on with the rest.
package struct PluginLoader {
  package let host: HostVersions
  /// Where each plugin's stages are announced before they start, and
  /// which plugins the supervising parent set aside.
  package let progress: ChildSession

  /// Other ABI versions probed for when `plugboard_entry_v1` is missing, to
  /// tell "built for another ABI" from "not a plugin".
  static let probedABIVersions: ClosedRange<UInt32> = 0...64

  package init(host: HostVersions = .current, progress: ChildSession) {
    self.host = host
    self.progress = progress
  }

  /// The outcome of every entry of `manifest`, in its order, then of every
  /// plugin discovered in its `pluginFolders` (see ``loadAll(_:profile:)``).
  /// A plugin that is disabled, or does not load in `profile`, is not opened.
  package func load(_ manifest: Manifest, profile: String? = nil) -> [PluginOutcome] {
    loadAll(manifest, profile: profile).outcomes
  }

  /// The listed plugins' outcomes, in manifest order.
  func loadListed(
    _ manifest: Manifest, profile: String?, vetting: PluginVetting, claimed: inout [String: String]
  ) -> [PluginOutcome] {
    LoadedLibraries.noteHostLibraries()
    return manifest.plugins.map { entry in
      guard entry.loads(inProfile: profile) else { return .disabled(entry) }
      // Set aside by the supervisor after it brought an earlier process down.
      if let problem = progress.quarantine[entry.name] { return .failed(entry, problem) }
      do throws(DeploymentProblem) {
        let file = try locate(entry, in: manifest, claimed: claimed, vetting: vetting)
        claimed[file.path] = entry.name
        guard let plugin = try load(entry, file: file, requirePins: manifest.requirePins, vetting: vetting)
        else {
          return .disabled(entry)
        }
        return .loaded(plugin)
      } catch {
        return .failed(entry, error)
      }
    }
  }

  // MARK: Stages

  /// The file `entry` leads to, vetted (SECURITY.md, "Vetting before
  /// dlopen") and opened for the checks before `dlopen`.
  func locate(
    _ entry: PluginEntry, in manifest: Manifest, claimed: [String: String], vetting: PluginVetting
  ) throws(DeploymentProblem) -> ELFFile {
    let absolute = manifest.absolutePath(of: entry)
    progress.stage(.vet, entry.name, file: absolute)
    func failure(_ detail: String, file: String = absolute) -> DeploymentProblem {
      .plugin(entry.name, file: file, stage: .locate, detail)
    }
    // One descriptor names the file, gives its status and is read from.
    // Without it (no /proc, or a name missing at the moment it was
    // followed), the path is walked as `realpath` does, and the file at
    // the end is then opened once: its status is judged from that
    // descriptor, which is the one read and whose identity must be what
    // the loader maps. Judging a path and then reading another look-up of
    // it would vet one file and load another, if the name changed between.
    let handle = PathHandle.open(absolute)
    let file: String
    let elf: ELFFile
    let status: stat?
    if let handle {
      file = handle.canonical
      elf = ELFFile(path: file, descriptor: handle.openForReading(), status: handle.status)
      status = handle.status
    } else {
      guard let canonical = FilePath.canonical(absolute) else {
        if FilePath.isLinkLoop(absolute) {
          throw failure("is a symbolic link that leads, through other links, back to itself (a loop)")
        }
        let origin =
          entry.path.hasPrefix("/")
          ? "" : " (plugins[\(entry.index)].path is relative to the manifest's folder, \(manifest.directory))"
        throw failure("does not exist\(origin)")
      }
      file = canonical
      elf = ELFFile(path: canonical)
      status = elf.status
    }
    switch status.map(FileKind.kind(of:)) ?? FileKind.of(file) {
    case .regular: break
    case .directory: throw failure("is a directory; expected a shared library file", file: file)
    case .other: throw failure("is not a regular file; expected a shared library file", file: file)
    }
    if let owner = claimed[file] {
      throw failure("is the same file as plugin '\(owner)'; a library can serve one plugin", file: file)
    }
    // A link is as trustworthy as the folder it sits in and its owner:
    // whoever can re-point any link on the way chooses the file (the
    // target's folders are judged too).
    if let problem = vetting.placement(absolute: absolute, canonical: file, entry: entry)
      ?? (status.map { vetting.permissions(of: file, status: $0) } ?? vetting.permissions(of: file))
      ?? (absolute == file ? nil : vetting.pluginLinkProblem(absolute))
    {
      throw DeploymentProblem.plugin(entry.name, file: file, stage: .vet, problem)
    }
    return elf
  }

  /// `entry`'s plugin, loaded from `file`; nil when `adopt` sets it aside.
  /// `adopt` runs once the descriptor's versions are checked and before
  /// `make_bundle`: given the name the plugin reports, it returns the entry
  /// to load it as (nil: do not assemble it). Without it the name must be
  /// `entry`'s.
  func load(
    _ entry: PluginEntry, file elf: ELFFile, requirePins: Bool, vetting: PluginVetting,
    adopt: ((String) throws(DeploymentProblem) -> PluginEntry?)? = nil
  ) throws(DeploymentProblem) -> LoadedPlugin? {
    // An unpinned plugin's folder is held before its closure is vetted,
    // and both the vetting and `dlopen` go through it.
    let held = entry.sha256 == nil && !requirePins ? try hold(entry, file: elf) : nil
    if let held { vetting.hold(held) }
    let needs = try vetBeforeDlopen(entry, file: elf, vetting: vetting, held: held)
    let signed = try vetSignatures(entry, file: elf, vetting: vetting)
    // The security boundary: `dlopen` runs the library's initialisers, and
    // those of every library it brings in, with the host's rights, before
    // any check could refuse it. Whatever judges the file (its header and
    // dynamic section, the folders and owners of what it would map, its
    // entry symbol) stays above this line; below it the plugin's code runs.
    var plugin = try loadVetted(
      entry, file: elf.path, identity: elf.identity, held: held, needs: needs, requirePins: requirePins,
      libraries: vetting.libraryPins, signed: signed, origins: vetting.origins, adopt: adopt)
    plugin?.signatures = signed?.signatures ?? []
    return plugin
  }

  /// Judges `elf` before anything of it runs: an ELF shared object for
  /// this machine, a dynamic section plugboard can read and survey, no
  /// unsafe loading flags, the entry symbol of this host's ABI, and a
  /// closure of libraries (`needs`) whose folders and owners are trusted
  /// and that does not depend on what earlier plugins loaded. Reads the
  /// file only; returns what it needs, for opening it and for explaining
  /// a failed `dlopen` (nil when its dynamic section names nothing).
  /// With `held`, the plugin's folder held for the loader, its closure is
  /// searched and judged through that folder.
  private func vetBeforeDlopen(
    _ entry: PluginEntry, file elf: ELFFile, vetting: PluginVetting, held: HeldFolder?
  ) throws(DeploymentProblem) -> PluginNeeds? {
    let file = elf.path
    func failure(_ stage: LoadStage, _ detail: String, dlerror: String? = nil) -> DeploymentProblem {
      .plugin(entry.name, file: file, stage: stage, held?.shown(detail) ?? detail, systemMessage: dlerror)
    }
    // Opened once by locate for every check before dlopen.
    try vetHeader(elf, failure: failure)
    if let problem = elf.layoutProblem() { throw failure(.vet, problem, dlerror: nil) }
    // What the loader would map is vetted from the dynamic section: one
    // that cannot be read, or holds more than is surveyed, would pass
    // unvetted what glibc still follows.
    let info: ELFDynamicInfo
    switch elf.dynamicSection() {
    case .success(let read): info = read
    case .failure(let defect):
      // The reader's words, the launcher's reason in the engine's phrasing.
      throw failure(
        .vet,
        "has a dynamic section plugboard cannot read (found \(defect.found)), so what the dynamic loader would "
          + "map for it cannot be vetted — rebuild it (check with: readelf -d \(Terminal.sanitize(file)))",
        dlerror: nil)
    }
    if let problem = UnsafeLibrary.problem(info, path: Terminal.sanitize(file))
      ?? PluginNeeds.beyondSurvey(info)
    {
      throw failure(.vet, problem, dlerror: nil)
    }
    try checkEntry(exported: info.entryVersions, file: file, failure: failure)
    var needs = PluginNeeds.survey(elf, folders: vetting.subfolders, held: held)
    if let folder = needs?.folder, entry.discoveredIn != nil {
      needs?.inDropInFolder = vetting.canonicalFolder(FilePath.directory(of: entry.path)) == folder
    }
    if let problem = needs?.trustProblem(vetting: vetting) { throw failure(.vet, problem, dlerror: nil) }
    if let problem = needs?.orderDependence() { throw failure(.open, problem, dlerror: nil) }
    return needs
  }

  /// Loads the vetted `file`, whose device and inode are `identity`: opens
  /// it (a pinned one through its pin, a signed one from its checked copy,
  /// any other through its held folder, see
  /// ``open(_:_:identity:requirePins:libraries:needs:signed:)``), finds its
  /// entry symbol and descriptor, checks the descriptor's versions, name and
  /// shared module stamps, and calls `make_bundle`. Each step runs plugin code.
  private func loadVetted(
    _ entry: PluginEntry, file: String, identity: FileIdentity?, held: HeldFolder?, needs: PluginNeeds?,
    requirePins: Bool, libraries: LibraryPins, signed: SignedLibraries?, origins: PrivateOrigins,
    adopt: ((String) throws(DeploymentProblem) -> PluginEntry?)?
  ) throws(DeploymentProblem) -> LoadedPlugin? {
    var entry = entry
    func failure(_ stage: LoadStage, _ detail: String, dlerror: String? = nil) -> DeploymentProblem {
      .plugin(entry.name, file: file, stage: stage, detail, systemMessage: dlerror)
    }
    progress.stage(.open, entry.name, file: file)
    let library = try open(
      entry, file, identity: identity, held: held, requirePins: requirePins, libraries: libraries,
      needs: needs, signed: signed, origins: origins)
    progress.stage(.findEntry, entry.name, file: file)
    let descriptor = try findDescriptor(in: library, file: file, failure: failure)
    progress.stage(.checkVersions, entry.name, file: file)
    if let adopt {
      try check(descriptor, entry: nil, file: file, failure: failure)
      guard let adopted = try adopt(descriptor.name) else { return nil }
      entry = adopted
    } else {
      try check(descriptor, entry: entry, file: file, failure: failure)
    }
    // Calls the plugin's and its shared modules' stamp functions, generated
    // code, in the stage already announced.
    let stamped: Set<String>
    switch SharedModuleStamps.verify(library, file: file) {
    case .success(let modules): stamped = modules
    case .failure(let problem): throw failure(.checkVersions, problem.detail, dlerror: nil)
    }
    progress.stage(.makeAssemblies, entry.name, file: file)
    let bundle = try makeBundle(descriptor, failure: failure)
    var plugin = LoadedPlugin(
      entry: entry, file: file, version: descriptor.version, kitVersion: descriptor.kitVersion,
      bundle: bundle)
    // Two builds of a module whose stamps match carry the same
    // declarations: the one loaded first serves this plugin as well.
    plugin.sharedLibraryConflicts = (needs?.conflicts(plugin: entry.name) ?? []).filter {
      !stamped.contains($0.module)
    }
    return plugin
  }

  /// Refuses, before `dlopen` runs any of its code, a file that is not an
  /// ELF shared object for this machine.
  private func vetHeader(_ elf: ELFFile, failure: (LoadStage, String, String?) -> DeploymentProblem)
    throws(DeploymentProblem)
  {
    let header: ELFHeader
    switch elf.header() {
    case .success(let read): header = read
    case .failure(let notELF):
      throw failure(.open, "is not a shared library: expected an ELF file, found \(notELF.found)", nil)
    }
    guard header.type == ELFHeader.sharedObjectType else {
      throw failure(
        .open,
        "is not a shared library: expected an ELF shared object (ET_DYN), found "
          + header.typeDescription, nil)
    }
    if let host = ELFHeader.host, host.machine != header.machine || host.fileClass != header.fileClass {
      throw failure(
        .open,
        "was built for another machine: expected \(host.machineDescription), found "
          + header.machineDescription, nil)
    }
  }

  /// The entry symbol, looked for in the file's dynamic symbol table
  /// before `dlopen`: a library that is no plugin, or a plugin of another
  /// ABI, is refused without any of its code running. Without a table that
  /// can be read (`versions` nil), ``findDescriptor(in:file:failure:)``
  /// looks after `dlopen`, as `dlsym` does.
  private func checkEntry(
    exported versions: [UInt32]?, file: String, failure: (LoadStage, String, String?) -> DeploymentProblem
  ) throws(DeploymentProblem) {
    guard let versions, !versions.contains(host.abi) else { return }
    if let other = versions.first(where: { Self.probedABIVersions.contains($0) }) {
      throw failure(.checkVersions, otherABI(other, file: file), nil)
    }
    throw failure(
      .findEntry,
      "does not export plugboard_entry_v\(host.abi); expected a Plugboard plugin (its dynamic symbol table, "
        + "read before opening it, has no plugboard_entry_v\(host.abi), so none of its code ran)", nil)
  }

  private func otherABI(_ other: UInt32, file: String) -> String {
    "was built for plugin ABI \(other); this host speaks \(host.abi) — rebuild the plugin against PlugboardKit "
      + "\(host.kit): " + RebuildCommand.forLibrary(at: file)
  }

  private func findDescriptor(
    in library: DynamicLibrary, file: String, failure: (LoadStage, String, String?) -> DeploymentProblem
  ) throws(DeploymentProblem) -> PluginDescriptor {
    let symbolName = "plugboard_entry_v\(host.abi)"
    let address: UnsafeMutableRawPointer
    switch library.symbol(symbolName) {
    case .success(let found): address = found
    case .failure(let error):
      if let other = otherABI(in: library) {
        throw failure(.checkVersions, otherABI(other, file: file), nil)
      }
      throw failure(
        .findEntry, "does not export \(symbolName); expected a Plugboard plugin (dlerror: \(error.text))",
        error.text)
    }
    let entryPoint = unsafeBitCast(address, to: plugboard_entry_v1_fn.self)
    guard let raw = entryPoint() else {
      throw failure(
        .findEntry,
        "returned NULL from \(symbolName); expected a pointer to its plugboard_plugin_v1 "
          + "descriptor", nil)
    }
    switch PluginDescriptor.read(UnsafeRawPointer(raw), host: host) {
    case .success(let descriptor): return descriptor
    case .failure(let defect): throw failure(.checkVersions, defect.detail, nil)
    }
  }

  private func otherABI(in library: DynamicLibrary) -> UInt32? {
    Self.probedABIVersions.first { version in
      guard version != host.abi, case .success = library.symbol("plugboard_entry_v\(version)") else {
        return false
      }
      return true
    }
  }

  /// Compiler first: with another compiler nothing else in the descriptor
  /// can be trusted to mean the same.
  private func check(
    _ descriptor: PluginDescriptor, entry: PluginEntry?, file: String,
    failure: (LoadStage, String, String?) -> DeploymentProblem
  ) throws(DeploymentProblem) {
    guard descriptor.swiftVersion == host.compiler else {
      throw failure(
        .checkVersions,
        "was compiled by Swift \(descriptor.swiftVersion); this host was compiled by "
          + "Swift \(host.compiler) — rebuild the plugin with the host's toolchain: "
          + RebuildCommand.forLibrary(at: file), nil)
    }
    if let refusal = KitCompatibility(plugin: descriptor.kitVersion, host: host.kit).refusal(
      plugin: descriptor.kitVersion, host: host.kit,
      rebuild: RebuildCommand.forLibrary(at: file, kitRelease: KitCompatibility.release(of: host.kit)))
    {
      throw failure(.checkVersions, refusal, nil)
    }
    guard let entry, descriptor.name != entry.name else { return }
    throw failure(
      .checkVersions,
      "calls itself '\(descriptor.name)'; the manifest names it '\(entry.name)' "
        + "(plugins[\(entry.index)]) — correct the name or the path", nil)
  }

  /// Calls `make_bundle` and takes ownership of the +1 object it returns.
  private func makeBundle(
    _ descriptor: PluginDescriptor, failure: (LoadStage, String, String?) -> DeploymentProblem
  ) throws(DeploymentProblem) -> PluginBundle {
    guard let make = descriptor.raw.pointee.make_bundle else {
      throw failure(.makeAssemblies, "has a descriptor without make_bundle; expected a function", nil)
    }
    guard let raw = make(descriptor.raw) else {
      throw failure(.makeAssemblies, "returned NULL from make_bundle; expected a PluginBundle", nil)
    }
    // Versions matched, so this is a Swift object made by our compiler.
    let object = Unmanaged<AnyObject>.fromOpaque(raw).takeRetainedValue()
    guard let bundle = object as? PluginBundle else {
      let found = String(reflecting: type(of: object))
      throw failure(
        .makeAssemblies,
        "returned a \(found) that is not this host's PlugboardKit.PluginBundle: the plugin "
          + "carries its own copy of PlugboardKit — depend on the PlugboardKit product (a .dynamic "
          + "library) instead of building its sources into the plugin", nil)
    }
    return bundle
  }
}
