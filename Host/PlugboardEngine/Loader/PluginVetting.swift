#if canImport(Glibc)
  import Glibc
#endif

/// The checks a plugin's file must pass before anything of it is opened,
/// as sudo and OpenSSH's StrictModes make them: where it lies, and who can
/// change it. `dlopen` runs a library's code the moment it maps it, so a
/// file anyone else can replace is code anyone else can run as the host.
///
/// Each check returns the detail of the problem, continuing "plugin 'X'
/// (path) …", or nil when the file passes.
package struct PluginVetting {
  /// The canonical folders plugins may lie in: the manifest's own, and the
  /// manifest's `pluginRoots`.
  let roots: [String]
  /// The user running the host, who with root may own plugin files.
  let user = geteuid()
  /// The folders judged so far; lives as long as this vetting, which is
  /// made once per bring-up, so a folder whose mode changed is judged
  /// afresh by the next one.
  private let folders = FolderVerdicts()
  /// The manifest's `libraryPins`, by the file each leads to.
  package let libraryPins: LibraryPins
  /// The trust blocks and the signer files they name, read once.
  let signatures: PluginSignatures
  /// The private folder pinned and signed plugins are opened through.
  let origins = PrivateOrigins()

  package init(manifest: Manifest) {
    let folders =
      [manifest.directory]
      + manifest.pluginRoots.map { FilePath.absolute($0, relativeTo: manifest.directory) }
    var roots: [String] = []
    for folder in folders {
      if let root = FilePath.canonical(folder), !roots.contains(root) { roots.append(root) }
    }
    self.roots = roots
    libraryPins = LibraryPins(manifest.libraryPins, directory: manifest.directory)
    signatures = PluginSignatures(manifest: manifest)
  }

  /// `canonical`, the file `absolute` leads to, must lie inside a root.
  package func placement(absolute: String, canonical: String, entry: PluginEntry) -> String? {
    guard !roots.contains(where: { Self.path(canonical, isInside: $0) }) else { return nil }
    let list = roots.joined(separator: ", ")
    let fix = #"move it under one of them, or list its folder in the manifest's "pluginRoots""#
    // Written inside a root without `..`, yet leading outside: only a
    // symbolic link does that. (`..` is the file system's to resolve, so a
    // path with one is judged by where it leads.)
    let writtenInside =
      !absolute.split(separator: "/").contains("..")
      && roots.contains(where: { Self.path(absolute, isInside: $0) })
    if absolute != canonical, writtenInside {
      return
        "is reached through the symbolic link \(absolute), which leads outside the plugin roots (\(list)) "
        + "— \(fix)"
    }
    let written =
      entry.discoveredIn.map { "the drop-in folder \"\(Terminal.sanitize($0))\"" }
      ?? "plugins[\(entry.index)].path \"\(Terminal.sanitize(entry.path))\""
    return "lies outside the plugin roots (\(list)): \(written) leads to \(canonical) — \(fix)"
  }

  /// The file, and every folder from it up to `/`, must be writable only by
  /// its owner, and owned by root or the user running the host. A folder
  /// writable by all is allowed when it is root's and sticky (`/tmp`):
  /// others can add files there but not replace someone else's.
  package func permissions(of canonical: String) -> String? {
    guard let file = FileTrust.status(canonical) else { return "cannot be examined (stat failed)" }
    return permissions(of: canonical, status: file)
  }

  /// The same, for the file at `canonical` whose status is `file` (taken
  /// from a descriptor already open on it). The file is judged every
  /// time; its folders once per bring-up (see ``FolderVerdicts``).
  func permissions(of canonical: String, status file: stat) -> String? {
    FileTrust.fileProblem(file, at: canonical, user: user, stake: Self.stake)
      ?? folderProblem(FilePath.directory(of: canonical))
  }

  /// The first problem of what the dynamic loader would map for the
  /// plugin at `canonical` besides it (``PluginNeeds/trustProblem(vetting:)``),
  /// as loading it would find it, or nil: for `pin`, which must not vouch
  /// for a plugin the loader refuses.
  package func closureProblem(of canonical: String) -> String? {
    PluginNeeds.survey(ELFFile(path: canonical), folders: subfolders)?.trustProblem(vetting: self)
  }

  /// The first link on the way to `absolute` that someone else could
  /// re-point (``LinkChase``), or nil; `thing` is what it leads to.
  func linkProblem(_ absolute: String, thing: String = "the plugin") -> String? {
    LinkChase.problem(absolute, user: user, thing: thing, stake: Self.stake)
  }

  /// The first link someone else could re-point on the way to `folder`, a
  /// folder the dynamic loader searches or opens a library from, as it
  /// names it (`$ORIGIN` expanded): the loader follows every link there
  /// after vetting, so each is judged as a written path's. Chased once
  /// per bring-up: every plugin of a deployment names the same few.
  func folderLinkProblem(_ folder: String, thing: String) -> String? {
    let key = thing + "\u{0}" + folder
    if let known = folders.links[key] { return known }
    // A held folder is a descriptor, which no one can re-point; a folder
    // inside it is chased by name, as the loader names it.
    if folders.held[folder] != nil { return nil }
    if let named = heldName(of: folder) { return folderLinkProblem(named, thing: thing) }
    let verdict = linkProblem(folder, thing: thing)
    folders.links[key] = .some(verdict)
    return verdict
  }

  /// The same for a library at `path`: its folder once per bring-up, and
  /// the file itself when it is a link.
  func libraryLinkProblem(_ path: String) -> String? {
    fileLinkProblem(path, folderThing: "the libraries the plugin loads", thing: "the library")
  }

  /// The same for a plugin's path as written: every plugin of a folder
  /// reached through a link (`.build/release`, itself a link) shares the
  /// chase of that folder. A link chase names the link and its folder,
  /// never the path chased, so the two judge alike.
  func pluginLinkProblem(_ absolute: String) -> String? {
    fileLinkProblem(absolute, folderThing: "the plugin", thing: "the plugin")
  }

  private func fileLinkProblem(_ path: String, folderThing: String, thing: String) -> String? {
    if let problem = folderLinkProblem(FilePath.directory(of: path), thing: folderThing) { return problem }
    var status = stat()
    guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return nil }
    return linkProblem(heldName(of: path) ?? path, thing: thing)
  }

  /// Holds `folder` for this bring-up's vetting: the loader is handed the
  /// plugins in it through `folder.loaderFolder`, so their closures are
  /// searched and judged through it too, the descriptor standing for the
  /// folder's canonical path (see ``HeldFolder``).
  func hold(_ folder: HeldFolder) {
    guard folder.isHeld else { return }
    folders.held[folder.loaderFolder] = folder.folder
    subfolders.hold(folder.loaderFolder)
  }

  /// The canonical path of `path` when it lies in a held folder
  /// (`/proc/self/fd/<dirfd>/…`), or nil: what a link chase, which
  /// judges names, is given.
  private func heldName(of path: String) -> String? {
    for (loader, folder) in folders.held where path.hasPrefix(loader + "/") {
      return folder + String(path.dropFirst(loader.count))
    }
    return nil
  }

  /// What whoever can change a plugin's file or folder can do.
  private static let stake = "run code in plugboard"

  /// `folder`'s canonical path, as ``FilePath/canonical(_:)``, resolved
  /// once per bring-up (see ``FolderVerdicts``).
  func canonicalFolder(_ folder: String) -> String? {
    if let known = folders.canonical[folder] { return known }
    if folders.held[folder] != nil { return folder }
    let resolved = FilePath.canonical(folder)
    folders.canonical[folder] = .some(resolved)
    return resolved
  }

  /// The problem with `folder` or the first folder above it that has one,
  /// nearest first, or nil when none has. Folders already judged in this
  /// bring-up are not examined again: 200 plugins in one folder cost one
  /// walk up to `/`, not 200.
  func folderProblem(_ start: String) -> String? {
    var passed: [String] = []
    var folder = start
    var verdict: String?
    while true {
      if let known = folders.verdicts[folder] {
        verdict = known
        break
      }
      if let problem = FileTrust.folderProblem(folder, user: user, thing: "the plugin", stake: Self.stake) {
        verdict = problem
        folders.verdicts[folder] = problem
        break
      }
      passed.append(folder)
      if folder == "/" { break }
      // Above a held folder: the folders above its canonical path.
      folder = FilePath.directory(of: folders.held[folder] ?? folder)
    }
    // A folder that passed itself has the verdict of the first one above it.
    for folder in passed { folders.verdicts[folder] = .some(verdict) }
    return verdict
  }

  /// The subfolder listings this bring-up's closure walks share.
  var subfolders: LoaderClosure.SubfolderCache { folders.subfolders }

  /// The problem with a folder the dynamic loader searches (canonical),
  /// continuing "has the run path entry "E" (…), ", or nil: the folder
  /// itself with no sticky exception (adding a library there is the
  /// attack), the folders above it as any plugin's, and the subfolders
  /// the loader tries first in it. Judged once per bring-up: every plugin
  /// of a deployment searches the same few folders.
  func searchedFolderProblem(_ folder: String) -> String? {
    if let known = folders.searched[folder] { return known }
    let verdict = judgeSearched(folder)
    folders.searched[folder] = .some(verdict)
    return verdict
  }

  private func judgeSearched(_ folder: String) -> String? {
    let thing = "the libraries the plugin loads"
    if let problem =
      FileTrust.folderProblem(folder, user: user, thing: thing, stake: Self.stake, exposed: .searchedByLoader)
      ?? (folder == "/" ? nil : folderProblem(FilePath.directory(of: folders.held[folder] ?? folder)))
    {
      return "whose libraries are trusted only as far as their folders: a library there \(problem)"
    }
    guard let existing = subfolders.existing(in: folder) else {
      return "which holds more subfolders the dynamic loader tries first than plugboard vets (at most "
        + "\(SearchSubfolders.maximum)) — remove those it does not need from \(Terminal.sanitize(folder))"
    }
    for subfolder in existing {
      guard
        let problem = FileTrust.folderProblem(
          subfolder, user: user, thing: thing, stake: Self.stake, exposed: .searchedByLoader)
      else { continue }
      let relative = String(subfolder.dropFirst(folder.count + 1))
      if relative.hasPrefix("glibc-hwcaps") {
        return "whose glibc-hwcaps subfolders the dynamic loader searches first: a library there \(problem)"
      }
      return
        "whose subfolder \(Terminal.sanitize(relative)) the dynamic loader of \(SearchSubfolders.cLibraryName) "
        + "searches first: a library there \(problem)"
    }
    return nil
  }

  static func path(_ path: String, isInside root: String) -> Bool {
    root == "/" || path.hasPrefix(root + "/")
  }
}

/// The verdicts of ``PluginVetting`` on folders, by canonical path: nil
/// when the folder and every folder above it pass, else the problem of the
/// nearest one that does not. One bring-up's worth: the files are judged
/// at every plugin, the folders they share once.
final class FolderVerdicts {
  var verdicts: [String: String?] = [:]
  /// Folders by the path they were named by, canonical (nil when one does
  /// not exist): run path folders, and the folders plugins are linked
  /// from. Every plugin of a deployment names the same few, and `realpath`
  /// walks each component with a system call (4,487 of them for `check`
  /// of 201 generated plugins).
  var canonical: [String: String?] = [:]
  /// The verdicts on each folder the loader searches (``PluginVetting/searchedFolderProblem(_:)``), by
  /// canonical path: every plugin of a deployment searches the same few
  /// folders (a `stat` and a listing each, per plugin, were a tenth of
  /// `check`'s vetting of 201 generated plugins).
  var searched: [String: String?] = [:]
  /// The first link someone else could re-point on the way to each folder
  /// the loader searches or opens a library from, or a plugin's path
  /// leads through, by what it leads to and the path it names it by
  /// (``PluginVetting/folderLinkProblem(_:thing:)``).
  var links: [String: String?] = [:]
  /// The subfolders the loader tries first in each folder, for the walks
  /// of every plugin's closure (``LoaderClosure``).
  let subfolders = LoaderClosure.SubfolderCache()
  /// The folders held for the loader (``HeldFolder``): the path it is
  /// handed each by (`/proc/self/fd/<dirfd>`), and the canonical path.
  var held: [String: String] = [:]
}
