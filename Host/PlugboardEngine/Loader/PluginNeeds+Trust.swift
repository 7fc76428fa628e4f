#if canImport(Glibc)
  import Glibc
#endif

/// Every library the dynamic loader may map for a plugin is code that runs
/// with plugboard's rights, so what the loader will search is vetted before
/// `dlopen`, as the plugin's own file is (SECURITY.md, "What the loader
/// maps"), for the plugin and for every library of its closure
/// (``LoaderClosure``), to the last one:
///
/// - a `DT_NEEDED` name holding a `/` is opened wherever it leads;
/// - a run path entry that is empty or relative is taken from the current
///   directory, whoever controls it; one with `$LIB` or `$PLATFORM` cannot
///   be followed here; an absolute one outside the plugin roots that does
///   not exist is a folder whoever creates it first fills;
/// - each folder searched, and the subfolders the loader tries first in
///   it (``SearchSubfolders``), must pass the folder check, with no sticky
///   exception: adding a file there is the attack;
/// - each library found through a run path (a neighbour such as
///   `libAppContracts.so`, and its own) must pass the file check;
/// - every symbolic link the loader follows on the way to a folder it
///   searches or to a library it opens must pass the link check
///   (``LinkChase``), as a written path's links do: the loader follows
///   them after vetting, so whoever could re-point one would choose the
///   library.
///
/// Libraries of the system's folders, and those plugboard loaded itself,
/// are trusted as the C library is.
extension PluginNeeds {
  /// The first problem, continuing "plugin 'X' (path) …", or nil.
  func trustProblem(vetting: PluginVetting) -> String? {
    if let problem = Self.objectProblem(
      file: file, folder: origin, namedByPath: namedByPath, runPath: runPath, vetting: vetting)
    {
      return problem
    }
    // The survey asked the loader about the plugin's own needs already;
    // those it left out are plugboard's own (a cached answer).
    var matched: [String: (file: String, loader: LoadedLibraries.Loader?)?] = [:]
    for need in needs { matched[need.name] = need.loaded.map { ($0, need.loader) } }
    let closure = LoaderClosure(
      folder: origin, needed: needed, runPath: runPath, subfolders: vetting.subfolders, matched: matched)
    // The messages are made only for a problem: most plugins have none,
    // and every start-up vets every plugin.
    for library in closure.libraries {
      let subject = { Self.subject(library) }
      guard let status = FileTrust.status(library.file) else { continue }
      if let problem = vetting.permissions(of: library.file, status: status)
        ?? vetting.libraryLinkProblem(library.path)
      {
        return "\(subject()) \(problem)"
      }
      if library.loadedByPlugin { continue }
      let info: ELFDynamicInfo
      switch library.section {
      case .success(let read)?: info = read
      case .failure(let defect)?:
        return
          "\(subject()) has a dynamic section plugboard cannot read (found \(defect.found)), so what the "
          + "dynamic loader would map for it cannot be vetted — replace it with the library it should be "
          + "(check with: readelf -d \(Terminal.sanitize(library.file)))"
      case nil: continue
      }
      if let problem = PluginNeeds.beyondSurvey(info)
        ?? Self.objectProblem(
          file: library.file, folder: FilePath.directory(of: library.path), namedByPath: info.namedByPath,
          runPath: info.runPath, vetting: vetting, name: library.name)
      {
        return "\(subject()) \(problem)"
      }
    }
    if closure.truncated {
      return "needs more than \(LoaderClosure.maximumLibraries) libraries outside the system's folders, "
        + "through its own and theirs; plugboard vets at most that many, and a real plugin needs a few dozen "
        + "— rebuild it"
    }
    return nil
  }

  /// "needs libA.so, which needs libB.so, which it loads from FILE, which".
  private static func subject(_ library: LoaderClosure.Library) -> String {
    let chain = library.chain.map(Terminal.sanitize).joined(separator: ", which needs ")
    return "needs \(chain), which it loads from \(Terminal.sanitize(library.file)), which"
  }

  /// What is wrong with one object's own dependencies and run path
  /// (`name`: the library's, or nil for the plugin's own), or nil.
  private static func objectProblem(
    file: String, folder: String, namedByPath: [String], runPath: [String], vetting: PluginVetting,
    name: String? = nil
  ) -> String? {
    let it = { name.map(Terminal.sanitize) ?? "it" }
    if let needed = namedByPath.first {
      return
        "needs the library \(Terminal.sanitize(needed)) by its path, which the dynamic loader opens wherever "
        + "it leads, outside every check — rebuild \(it()) to need that library by its name"
    }
    for entry in runPath {
      if let problem = runPathProblem(
        entry, origin: folder,
        fix:
          "rebuild \(it()) without that entry (check with: readelf -d \(Terminal.sanitize(file)) | grep PATH)",
        vetting: vetting)
      {
        return
          "has the run path entry \"\(Terminal.sanitize(entry))\" (\(Terminal.sanitize(runPath.joined(separator: ":")))), "
          + problem
      }
    }
    return nil
  }

  /// What is wrong with one run path entry, continuing "has the run path
  /// entry "E" (…), ", or nil.
  private static func runPathProblem(
    _ entry: String, origin: String, fix: @autoclosure () -> String, vetting: PluginVetting
  ) -> String? {
    if entry.isEmpty {
      return "an empty entry, which the dynamic loader takes as the current directory: whoever controls the "
        + "folder plugboard is started in chooses the libraries it loads — " + fix()
    }
    guard let folder = Self.expand(entry, origin: origin) else {
      if entry.utf8.contains(UInt8(ascii: "$")) {
        return "which names a token other than $ORIGIN that plugboard cannot follow to vet the libraries "
          + "found there — " + fix()
      }
      return
        "a relative entry, which the dynamic loader takes from the current directory: whoever controls the "
        + "folder plugboard is started in chooses the libraries it loads — " + fix()
    }
    if let problem = vetting.folderLinkProblem(folder, thing: "the libraries the plugin loads") {
      return "which \(problem)"
    }
    guard let canonical = vetting.canonicalFolder(folder) else {
      if vetting.roots.contains(where: { PluginVetting.path(folder, isInside: $0) }) { return nil }
      return missingFolderProblem(folder, vetting: vetting, fix: fix())
    }
    return vetting.searchedFolderProblem(canonical)
  }

  /// A run path folder that does not exist maps nothing today; it is a
  /// risk only when someone other than root and the user running plugboard
  /// can create it, and that is decided by the nearest folder above it that
  /// exists: whoever can write there (a sticky bit does not stop anyone
  /// creating a folder), or replace a folder above that. Every SwiftPM
  /// library names its toolchain's folder, so on a machine without that
  /// toolchain this is the common case, and `/opt` or `/usr` above it keep
  /// it safe.
  private static func missingFolderProblem(
    _ folder: String, vetting: PluginVetting, fix: @autoclosure () -> String
  ) -> String? {
    let ancestor = FilePath.nearestFolder(above: folder) { vetting.canonicalFolder($0) != nil }
    let existing = vetting.canonicalFolder(ancestor) ?? "/"
    let shown = Terminal.sanitize(folder)
    let parent = Terminal.sanitize(existing)
    let creates = "whoever creates it first chooses the libraries the plugin loads — "
    guard let status = FileTrust.status(existing) else {
      return "which names \(shown), a folder that does not exist, under \(parent), which cannot be examined: "
        + creates + fix()
    }
    let user = geteuid()
    if status.st_uid != 0, status.st_uid != user {
      return "which names \(shown), a folder that does not exist, under \(parent), which is owned by uid "
        + "\(status.st_uid), neither root nor the user running plugboard (uid \(user)): " + creates + fix()
    }
    if status.st_mode & (S_IWGRP | S_IWOTH) != 0 {
      return "which names \(shown), a folder that does not exist, under \(parent), which is writable by "
        + "\(FileTrust.writers(status.st_mode)) (\(FileTrust.describe(status))), so they can create it: "
        + creates + fix()
    }
    if let problem = vetting.folderProblem(existing) {
      return "which names \(shown), a folder that does not exist, under \(parent), whose libraries would be "
        + "trusted only as far as their folders: a library there \(problem)"
    }
    return nil
  }

  /// The system's own library folders, trusted as the C library is.
  static func isSystemFile(_ path: String) -> Bool {
    ["/lib/", "/usr/lib/", "/lib64/", "/usr/lib64/"].contains { path.hasPrefix($0) }
  }
}
