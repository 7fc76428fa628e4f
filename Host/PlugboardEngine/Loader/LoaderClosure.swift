/// Every library the dynamic loader may map when it opens a plugin, found
/// from the files alone (nothing is opened with `dlopen`), breadth first as
/// the loader searches: each object's `DT_NEEDED` names through that
/// object's own run path, `$ORIGIN` being its own folder, and in each
/// folder the subfolders it tries first (``SearchSubfolders``); a name
/// found once serves every object that needs it later.
///
/// A name plugboard loaded itself is not searched for (the loader uses
/// that library); one a plugin loaded earlier is found but not followed
/// further (it was walked when that plugin was vetted); one found in the
/// system's folders, or not through the run path at all, is the system's,
/// trusted as the C library is.
///
/// Vetting judges every object of it (``PluginNeeds/trustProblem(vetting:)``)
/// and `pin` pins from it (``LibraryClosure``): one walk, so that `check`,
/// the loader and `pin` agree on every file.
struct LoaderClosure {
  /// One library of the closure.
  struct Library {
    /// The `DT_NEEDED` name the loader searches for.
    let name: String
    /// The path the loader opens (its folder is the library's `$ORIGIN`),
    /// and the file it leads to (canonical).
    let path: String
    let file: String
    /// The names from one of the plugin's own needs down to this one
    /// (`["libA.so", "libB.so"]` for a library of a library).
    let chain: [String]
    /// The run path entry that found it, and the `$ORIGIN` of the object
    /// whose entry it is.
    let entry: String
    let origin: String
    /// Whether an earlier plugin loaded a library of that name, which the
    /// loader then uses instead: the file is judged, not followed.
    let loadedByPlugin: Bool
    /// Its dynamic section, or what the reader found wrong with it; nil
    /// when it was not read (one loaded already).
    let section: Result<ELFDynamicInfo, ELFDynamicInfo.Defect>?

    /// Whether the run path entry that found it is exactly `$ORIGIN`.
    var foundBeside: Bool { Self.origins.contains(entry) }
    static let origins: Set = ["$ORIGIN", "${ORIGIN}"]
  }

  /// In the order the loader would map them.
  private(set) var libraries: [Library] = []
  /// Whether the walk stopped at ``maximumLibraries``.
  private(set) var truncated = false

  /// A real plugin maps a few dozen libraries outside the system's folders
  /// at most; a closure beyond this is refused rather than walked at a
  /// cost its author chooses.
  static let maximumLibraries = 256

  /// The closure of an object in `folder` (its `$ORIGIN`) that needs
  /// `needed` through `runPath`. `mappedEarlier` names the libraries
  /// plugins loaded before this one will have mapped (by name), for a walk
  /// made before anything is loaded (`pin`): taken as loaded by a plugin.
  /// `subfolders` lists each folder's search subfolders once for every
  /// walk that shares it (a bring-up's: every plugin searches the same
  /// few folders).
  ///
  /// `matched` holds what ``LoadedLibraries/match(loadedAs:)`` answered
  /// for names already asked (the plugin's own needs, which its survey
  /// asked): each answer costs a `dlopen`, a `dlinfo` and a `realpath`.
  init(
    folder: String, needed: [String], runPath: [String], mappedEarlier: [String: String] = [:],
    subfolders: SubfolderCache = SubfolderCache(),
    matched: [String: (file: String, loader: LoadedLibraries.Loader?)?] = [:]
  ) {
    var seen = Set<String>()
    var queue: [(folder: String, needed: [String], runPath: [String], chain: [String])] = [
      (folder, needed, runPath, [])
    ]
    var next = 0
    while next < queue.count {
      let object = queue[next]
      next += 1
      for name in object.needed where !name.utf8.contains(UInt8(ascii: "/")) && seen.insert(name).inserted {
        let answer = matched[name] ?? LoadedLibraries.match(loadedAs: name)
        let loaded = answer ?? mappedEarlier[name].map { ($0, .plugin("")) }
        if loaded?.loader == .host { continue }
        guard
          let (path, entry) = Self.search(
            name, runPath: object.runPath, origin: object.folder, subfolders: subfolders)
        else {
          continue
        }
        let file = subfolders.canonicalFile(path) ?? path
        if PluginNeeds.isSystemFile(file) { continue }
        guard libraries.count < Self.maximumLibraries else {
          truncated = true
          return
        }
        let followed = loaded == nil
        let section = followed ? ELFFile(path: file).dynamicSection() : nil
        libraries.append(
          Library(
            name: name, path: path, file: file, chain: object.chain + [name], entry: entry,
            origin: object.folder, loadedByPlugin: !followed, section: section))
        if let info = try? section?.get(), PluginNeeds.beyondSurvey(info) == nil {
          queue.append((FilePath.directory(of: path), info.needed, info.runPath, object.chain + [name]))
        }
      }
    }
  }

  /// Where the loader finds `name` through `runPath` (`$ORIGIN` being
  /// `origin`), and the entry that finds it: in each folder, the
  /// subfolders it tries first, then the folder. An entry the loader
  /// takes from the current directory, or with a token other than
  /// `$ORIGIN`, is not followed (vetting refuses it).
  static func search(
    _ name: String, runPath: [String], origin: String, subfolders: SubfolderCache
  ) -> (path: String, entry: String)? {
    for entry in runPath {
      guard let folder = PluginNeeds.expand(entry, origin: origin),
        let path = subfolders.find(name, in: folder)
      else { continue }
      return (path, entry)
    }
    return nil
  }

  /// The file the loader maps for `name` from `folder`, whose search
  /// subfolders are `subfolders`: the first of them that holds it, else
  /// the folder's own; nil when none does. Sealing a pinned plugin's
  /// neighbours looks the same way (``Neighbours``).
  static func find(_ name: String, in folder: String, subfolders: [String]) -> String? {
    (subfolders + [folder]).lazy.map { $0 + "/" + name }.first { FileKind.following($0) == .regular }
  }

  /// What the walks learn of the folders they search, once per walk, or
  /// per bring-up when its walks share one: every plugin's needs are
  /// looked for in the same few folders (the toolchain's, the plugins'
  /// own), and a stat or a `realpath` of each, per plugin, was most of
  /// what vetting a closure cost.
  final class SubfolderCache {
    private var known: [String: [String]?] = [:]
    private var located: [String: String?] = [:]
    private var canonicalFolders: [String: String?] = [:]
    private var heldFolders: Set<String> = []

    init() {}

    /// Takes `loaderFolder` (`/proc/self/fd/<dirfd>`, see ``HeldFolder``)
    /// as canonical: the descriptor is the folder, whatever its path names
    /// by now, and the libraries in it are named through it.
    func hold(_ loaderFolder: String) {
      canonicalFolders[loaderFolder] = .some(loaderFolder)
      heldFolders.insert(loaderFolder)
    }

    /// As ``SearchSubfolders/existing(in:)``.
    func existing(in folder: String) -> [String]? {
      if let found = known[folder] { return found }
      let found = SearchSubfolders.existing(in: folder)
      known[folder] = found
      return found
    }

    /// As ``LoaderClosure/find(_:in:subfolders:)``, with the folder's own
    /// search subfolders.
    func find(_ name: String, in folder: String) -> String? {
      let key = folder + "/" + name
      if let found = located[key] { return found }
      let found = LoaderClosure.find(name, in: folder, subfolders: existing(in: folder) ?? [])
      located[key] = found
      return found
    }

    /// The canonical path of the file at `path`: its folder's, resolved
    /// once, and its name when it is not a link (one `readlink` where
    /// `realpath` reads every component); nil when it does not exist.
    func canonicalFile(_ path: String) -> String? {
      let folder = FilePath.directory(of: path)
      let canonical: String?
      if let known = canonicalFolders[folder] {
        canonical = known
      } else {
        canonical = FilePath.canonical(folder)
        canonicalFolders[folder] = canonical
      }
      guard let canonical, FilePath.isNotLink(path) else {
        return heldFolders.contains(folder) ? Self.heldTarget(of: path, in: folder) : FilePath.canonical(path)
      }
      let name = path.dropFirst(folder.count)
      return canonical == "/" ? String(name) : canonical + String(name)
    }

    /// Where the link at `path`, in the held folder `folder`, leads: a link
    /// to a name beside it (`libA.so -> libA.so.1`) is followed through the
    /// held folder, as the loader follows it; one leading elsewhere, by the
    /// path it names (`realpath`), as the loader does too.
    private static func heldTarget(of path: String, in folder: String) -> String? {
      var current = path
      // The kernel's bound on links followed in one look-up.
      for _ in 0..<40 {
        if FilePath.isNotLink(current) { return current }
        guard let target = FilePath.linkTarget(current) else { return nil }
        guard !target.utf8.contains(UInt8(ascii: "/")), target != ".", target != ".." else {
          return FilePath.canonical(current)
        }
        current = folder + "/" + target
      }
      return nil
    }
  }
}
