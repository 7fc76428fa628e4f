#if canImport(Glibc)
  import Glibc
#endif

/// The libraries of one drop-in folder (the manifest's `pluginFolders`):
/// every `lib*.so` directly inside it, in byte-wise order of file name, so
/// that the same folder always loads in the same order whatever the file
/// system returns.
///
/// A folder is hostile input: at most ``entryLimit`` entries are read (a
/// folder holding more is refused, not truncated, since which files were
/// left out would depend on the file system's order); other files, hidden
/// files and folders (even one named `lib*.so`) are ignored, and subfolders
/// are not searched. Whatever a discovered library is, the loader vets it
/// as it vets a listed one.
///
/// A library that another library of the folder needs (a `DT_NEEDED` name,
/// such as the contracts `libAppContracts.so` a plugin was built against)
/// is that plugin's neighbour: its `$ORIGIN` run path finds it there and
/// the dynamic loader opens it with the plugin, so it is not a plugin of
/// its own (it exports no `plugboard_entry_v1`). That is the drop-in layout
/// for plugins with neighbours: each plugin's libraries beside it.
package enum PluginDiscovery {
  /// How many entries one drop-in folder may hold, plugin or not.
  static let entryLimit = 1024

  /// The absolute paths of the plugin libraries in the folder that
  /// `pluginFolders[index]` (`written`) names, in load order, or the
  /// problem reading it.
  package static func libraries(in written: String, index: Int, manifest: Manifest) -> Result<
    [String], DeploymentProblem
  > {
    let folder = FilePath.absolute(written, relativeTo: manifest.directory)
    let name = "the drop-in folder pluginFolders[\(index)] \"\(Terminal.sanitize(written))\" (\(folder))"
    func problem(_ detail: String) -> DeploymentProblem {
      DeploymentProblem(stage: .locate, plugin: nil, file: folder, message: "\(name) \(detail)")
    }
    if let unsafe = trustProblem(of: folder) { return .failure(problem(unsafe)) }
    let entries: [String]
    switch FilePath.names(in: folder, limit: entryLimit) {
    case .success(let found): entries = found
    case .failure(let error):
      return .failure(
        problem("cannot be read: \(error.reason) — create it, or correct pluginFolders[\(index)]"))
    }
    guard entries.count <= entryLimit else {
      return .failure(
        problem(
          "holds more than \(entryLimit) entries; plugboard reads at most \(entryLimit) — keep only plugin "
            + "libraries there"))
    }
    let names = entries.filter(isCandidate)
    let files = names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
      .map { folder + "/" + $0 }
      .filter { FileKind.of($0) != .directory }
    return .success(withoutNeighbours(files))
  }

  /// `files` but those another of them needs. Only dynamic sections are
  /// read, bounded (see ``ELFDynamicInfo``); nothing is opened with
  /// `dlopen`. A file whose section cannot be read needs nothing here, and
  /// is vetted as a plugin, which reports what is wrong with it.
  private static func withoutNeighbours(_ files: [String]) -> [String] {
    let names = Set(files.map(fileName))
    var needed: Set<String> = []
    for file in files {
      guard let info = FilePath.canonical(file).flatMap({ ELFFile(path: $0).dynamicInfo() }) else { continue }
      needed.formUnion(info.needed.filter { names.contains($0) && $0 != fileName(file) })
    }
    return files.filter { !needed.contains(fileName($0)) }
  }

  private static func fileName(_ file: String) -> String {
    file.split(separator: "/").last.map(String.init) ?? file
  }

  /// Why the drop-in folder at `folder` cannot be trusted, continuing
  /// "the drop-in folder … ", or nil. Stricter than a plugin's folder:
  /// adding a file or a link to a drop-in folder adds a plugin, so it must
  /// be writable by no one else, root's sticky folders (`/tmp`) included;
  /// the folders above it are judged as a plugin's are. Nil too when it
  /// cannot be examined, which reading it then reports.
  static func trustProblem(of folder: String) -> String? {
    guard let canonical = FilePath.canonical(folder), let status = FileTrust.status(canonical) else {
      return nil
    }
    let user = geteuid()
    let stake = "add plugins to plugboard"
    if let problem = FileTrust.ownership(status, of: canonical, what: "is", user: user, stake: stake) {
      return problem
    }
    if status.st_mode & (S_IWGRP | S_IWOTH) != 0 {
      return
        "is writable by \(FileTrust.writers(status, at: canonical)) (\(FileTrust.describe(status))); anyone who can "
        + "add a file or a link there adds a plugin, sticky bit or not — chmod go-w \(Terminal.sanitize(canonical))"
    }
    return FileTrust.foldersProblem(
      from: FilePath.directory(of: canonical), user: user, thing: "the drop-in folder", stake: stake)
      ?? LinkChase.problem(folder, user: user, thing: "the drop-in folder", stake: stake)
  }

  /// `libName.so`, not hidden.
  static func isCandidate(_ fileName: String) -> Bool {
    fileName.hasPrefix("lib") && fileName.hasSuffix(".so") && fileName.utf8.count > 6
  }

  /// The name a library is known by until it reports its own: its file
  /// name without `lib` and `.so`.
  package static func provisionalName(of file: String) -> String {
    String(fileName(file).dropFirst(3).dropLast(3))
  }
}
