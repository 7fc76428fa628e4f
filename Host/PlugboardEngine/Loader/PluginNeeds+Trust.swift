#if canImport(Glibc)
  import Glibc
#endif

/// Every library the dynamic loader may map for a plugin is code that runs
/// with plugboard's rights, so what the loader will search is vetted before
/// `dlopen`, as the plugin's own file is (SECURITY.md, "What the loader
/// maps"):
///
/// - a `DT_NEEDED` name holding a `/` is opened wherever it leads;
/// - a run path entry that is empty or relative is taken from the current
///   directory, whoever controls it; one with `$LIB` or `$PLATFORM` cannot
///   be followed here; an absolute one outside the plugin roots that does
///   not exist is a folder whoever creates it first fills;
/// - each folder searched, and the `glibc-hwcaps/*` subfolders the loader
///   tries first in it, must pass the folder check;
/// - each library found through the run path (a neighbour such as
///   `libAppContracts.so`) must pass the file check.
///
/// Libraries of the system's folders, and those plugboard loaded itself,
/// are trusted as the C library is.
extension PluginNeeds {
  /// The first problem, continuing "plugin 'X' (path) …", or nil.
  func trustProblem(vetting: PluginVetting) -> String? {
    if let name = namedByPath.first {
      return
        "needs the library \(Terminal.sanitize(name)) by its path, which the dynamic loader opens wherever it "
        + "leads, outside every check — rebuild it to need that library by its name"
    }
    for entry in runPath {
      if let problem = runPathProblem(entry, vetting: vetting) {
        return
          "has the run path entry \"\(Terminal.sanitize(entry))\" (\(Terminal.sanitize(runPath.joined(separator: ":")))), "
          + problem
      }
    }
    let user = geteuid()
    for need in needs {
      guard let own = need.own, !Self.isSystemFile(own), let status = FileTrust.status(own) else { continue }
      if let problem = FileTrust.fileProblem(status, at: own, user: user, stake: "run code in plugboard")
        ?? vetting.folderProblem(FilePath.directory(of: own))
      {
        return "needs \(need.name), which it loads from \(Terminal.sanitize(own)), which \(problem)"
      }
    }
    return nil
  }

  /// What is wrong with one run path entry, continuing "has the run path
  /// entry "E" (…), ", or nil.
  private func runPathProblem(_ entry: String, vetting: PluginVetting) -> String? {
    let fix = "rebuild it without that entry (check with: readelf -d \(Terminal.sanitize(file)) | grep PATH)"
    if entry.isEmpty {
      return "an empty entry, which the dynamic loader takes as the current directory: whoever controls the "
        + "folder plugboard is started in chooses the libraries it loads — " + fix
    }
    guard let folder = Self.expand(entry, origin: self.folder) else {
      if entry.utf8.contains(UInt8(ascii: "$")) {
        return "which names a token other than $ORIGIN that plugboard cannot follow to vet the libraries "
          + "found there — " + fix
      }
      return
        "a relative entry, which the dynamic loader takes from the current directory: whoever controls the "
        + "folder plugboard is started in chooses the libraries it loads — " + fix
    }
    guard let canonical = vetting.canonicalFolder(folder) else {
      if vetting.roots.contains(where: { PluginVetting.path(folder, isInside: $0) }) { return nil }
      return missingFolderProblem(folder, vetting: vetting, fix: fix)
    }
    if let problem = vetting.folderProblem(canonical) {
      return "whose libraries are trusted only as far as their folders: a library there \(problem)"
    }
    return vetting.hwcapsProblem(in: canonical, judge: Self.hwcapsProblem(in:))
  }

  /// A run path folder that does not exist maps nothing today; it is a
  /// risk only when someone other than root and the user running plugboard
  /// can create it, and that is decided by the nearest folder above it that
  /// exists: whoever can write there (a sticky bit does not stop anyone
  /// creating a folder), or replace a folder above that. Every SwiftPM
  /// library names its toolchain's folder, so on a machine without that
  /// toolchain this is the common case, and `/opt` or `/usr` above it keep
  /// it safe.
  private func missingFolderProblem(_ folder: String, vetting: PluginVetting, fix: String) -> String? {
    let ancestor = FilePath.nearestFolder(above: folder) { vetting.canonicalFolder($0) != nil }
    let existing = vetting.canonicalFolder(ancestor) ?? "/"
    let shown = Terminal.sanitize(folder)
    let parent = Terminal.sanitize(existing)
    let creates = "whoever creates it first chooses the libraries the plugin loads — "
    guard let status = FileTrust.status(existing) else {
      return "which names \(shown), a folder that does not exist, under \(parent), which cannot be examined: "
        + creates + fix
    }
    let user = geteuid()
    if status.st_uid != 0, status.st_uid != user {
      return "which names \(shown), a folder that does not exist, under \(parent), which is owned by uid "
        + "\(status.st_uid), neither root nor the user running plugboard (uid \(user)): " + creates + fix
    }
    if status.st_mode & (S_IWGRP | S_IWOTH) != 0 {
      return "which names \(shown), a folder that does not exist, under \(parent), which is writable by "
        + "\(FileTrust.writers(status.st_mode)) (\(FileTrust.describe(status))), so they can create it: "
        + creates + fix
    }
    if let problem = vetting.folderProblem(existing) {
      return "which names \(shown), a folder that does not exist, under \(parent), whose libraries would be "
        + "trusted only as far as their folders: a library there \(problem)"
    }
    return nil
  }

  /// The loader tries `FOLDER/glibc-hwcaps/<level>/` before `FOLDER`: a
  /// subfolder others can write there overrides every library of it.
  private static func hwcapsProblem(in folder: String) -> String? {
    let hwcaps = folder + "/glibc-hwcaps"
    guard FileKind.of(hwcaps) == .directory,
      case .success(let names) = FilePath.names(in: hwcaps, limit: 64)
    else { return nil }
    let subfolders = [hwcaps] + names.map { hwcaps + "/" + $0 }
    for subfolder in subfolders {
      if let problem = FileTrust.folderProblem(
        subfolder, user: geteuid(), thing: "the libraries the plugin loads", stake: "run code in plugboard")
      {
        return "whose glibc-hwcaps subfolders the dynamic loader searches first: a library there \(problem)"
      }
    }
    return nil
  }

  /// The system's own library folders, trusted as the C library is.
  static func isSystemFile(_ path: String) -> Bool {
    ["/lib/", "/usr/lib/", "/lib64/", "/usr/lib64/"].contains { path.hasPrefix($0) }
  }
}
