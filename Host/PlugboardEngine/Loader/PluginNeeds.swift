import PlugboardDigest

#if canImport(Glibc)
  import Glibc
#endif

/// A plugin's `DT_NEEDED` libraries as the dynamic loader will resolve
/// them, learned before it is opened (nothing of it runs): for each name,
/// the file its own run path finds, and the library already loaded under
/// that name, which the loader uses instead without searching at all.
///
/// The loader matching by name is what makes load order matter: a plugin
/// whose folder lacks a library it needs loads only if an earlier plugin
/// loaded one of that name, and a plugin whose folder holds a different
/// copy silently uses the earlier plugin's. See Docs/loading.md, "How the
/// host loads a plugin".
struct PluginNeeds {
  /// One `DT_NEEDED` name without a `/`, unless plugboard itself loaded
  /// a library under it.
  struct Need: Equatable {
    let name: String
    /// The file the plugin's run path finds (canonical), if any.
    let own: String?
    /// Whether one of the system's folders holds a file of that name (only
    /// looked for when the run path finds none).
    let inSystemFolder: Bool
    /// The library loaded under `name` (canonical), if any, and who
    /// loaded it.
    let loaded: String?
    let loader: LoadedLibraries.Loader?
  }

  /// The plugin's library (canonical) and its folder, `$ORIGIN`.
  let file: String
  let folder: String
  /// The same folder held open for the loader (`/proc/self/fd/<dirfd>`,
  /// ``HeldFolder``), if it is.
  var heldOrigin: String? = nil
  /// Where its `$ORIGIN` is searched: the held folder, so that the
  /// neighbours judged are the files the loader will map, else ``folder``.
  var origin: String { heldOrigin ?? folder }
  /// The run path as written.
  let runPath: [String]
  let needs: [Need]
  /// Every `DT_NEEDED` name, in order.
  var needed: [String] = []
  /// The `DT_NEEDED` names holding a `/`, which the loader opens as paths.
  var namedByPath: [String] = []
  /// Whether ``folder`` is the drop-in folder the plugin was discovered in
  /// (not a link's target elsewhere): a library copied there is taken as
  /// the plugin's neighbour, not as a plugin (see ``PluginDiscovery``).
  var inDropInFolder = false

  /// Real libraries have a few run path entries; a file with more is
  /// refused rather than surveyed at a cost its author chooses. (The
  /// reader bounds the needed names: a file needing more than
  /// `PLUGBOARD_ELF_MAX_NEEDED` cannot be read.)
  private static let maximumRunPathEntries = 64
  /// Larger files are taken as different rather than hashed.
  private static let maximumComparedSize = 256 << 20

  /// Why `info` holds more than a survey reads (so nothing of it could be
  /// vetted), or nil.
  static func beyondSurvey(_ info: ELFDynamicInfo) -> String? {
    if info.runPath.count > maximumRunPathEntries {
      return "has \(info.runPath.count) run path entries; plugboard vets at most \(maximumRunPathEntries) — "
        + "rebuild it"
    }
    return nil
  }

  /// The needs of the library `elf` (opened at its canonical path); nil
  /// when its dynamic section cannot be read (the layout check and `dlopen`
  /// report that) or is beyond the bounds above. `folders` is what the
  /// walks of the same bring-up learnt of the folders searched. With
  /// `held`, the plugin's folder held for the loader, `$ORIGIN` is
  /// searched through it; the libraries found are named by the folder's
  /// canonical path all the same.
  static func survey(
    _ elf: ELFFile, folders searched: LoaderClosure.SubfolderCache, held: HeldFolder? = nil
  ) -> PluginNeeds? {
    let file = elf.path
    guard let info = elf.dynamicInfo(), info.runPath.count <= maximumRunPathEntries else { return nil }
    let folder = FilePath.directory(of: file)
    let origin = held.map(\.loaderFolder) ?? folder
    let folders = info.runPath.compactMap { expand($0, origin: origin) }
    let system = systemFolderList
    // Libraries plugboard loaded itself serve every plugin: nothing to compare.
    // A byte test: String's contains(String) is Foundation's, a locale-aware
    // search, for each of a dozen names per plugin.
    let needs = info.needed.filter { !$0.utf8.contains(UInt8(ascii: "/")) }.compactMap { name -> Need? in
      let match = LoadedLibraries.match(loadedAs: name)
      let (loaded, loader) = (match?.file, match?.loader)
      guard loader != .host else { return nil }
      // Found as the closure walk finds it: the search subfolders first.
      let own = folders.lazy.compactMap { searched.find(name, in: $0) }.first.flatMap(searched.canonicalFile)
        .map { held?.named($0) ?? $0 }
      return Need(
        name: name, own: own,
        inSystemFolder: own == nil && system.contains { isRegularFile($0 + "/" + name) },
        loaded: loaded, loader: loader)
    }
    var survey = PluginNeeds(
      file: file, folder: folder, heldOrigin: held.map(\.loaderFolder), runPath: info.runPath, needs: needs)
    survey.namedByPath = info.namedByPath
    survey.needed = info.needed
    return survey
  }

  /// Where the dynamic loader looks after the run path, as far as can be
  /// told without reading its cache: `LD_LIBRARY_PATH` (searched before a
  /// `DT_RUNPATH`, and so before `$ORIGIN`, but rarely set for plugboard),
  /// the default folders, and the C library's own (the multiarch folder).
  /// Neither changes while plugboard runs.
  private static let systemFolderList = systemFolders()

  private static func systemFolders() -> [String] {
    let environment = getenv("LD_LIBRARY_PATH").map { String(cString: $0) } ?? ""
    let libc = LoadedLibraries.file(loadedAs: "libc.so.6").map(FilePath.directory(of:))
    return environment.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
      + ["/lib", "/usr/lib", "/lib64", "/usr/lib64"] + (libc.map { [$0] } ?? [])
  }

  /// A run path entry with `$ORIGIN` replaced by `origin`; nil for an
  /// entry using another token (`$LIB`, `$PLATFORM`), which is not followed.
  static func expand(_ entry: String, origin: String) -> String? {
    var path = entry
    // Most entries have no token, or are one: no search needed then.
    if path == "$ORIGIN" || path == "${ORIGIN}" {
      path = origin
    } else if path.utf8.contains(UInt8(ascii: "$")) {
      for token in ["${ORIGIN}", "$ORIGIN"] { path = path.replacing(token, with: origin) }
    }
    return path.utf8.contains(UInt8(ascii: "$")) || !path.hasPrefix("/") ? nil : path
  }

  private static func isRegularFile(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
  }

  /// "its run path (/opt/swift/usr/lib/swift/linux:$ORIGIN, with $ORIGIN
  /// being /srv/plugins)", or "it has no run path".
  var runPathDescription: String {
    guard !runPath.isEmpty else { return "it has no run path" }
    let origin = runPath.contains { $0.contains("ORIGIN") } ? ", with $ORIGIN being \(folder)" : ""
    return "its run path (\(runPath.joined(separator: ":"))\(origin))"
  }

  /// The libraries the plugin would find only because another plugin
  /// loaded them first: it fails when loaded alone or before that plugin.
  /// The detail of the refusal, or nil.
  func orderDependence() -> String? {
    let borrowed = needs.compactMap { need -> (Need, String)? in
      guard need.own == nil, !need.inSystemFolder, let loaded = need.loaded,
        case .plugin(let other) = need.loader
      else { return nil }
      return (need, "plugin '\(other)' loaded \(loaded) first")
    }
    guard let (need, how) = borrowed.first else { return nil }
    return "needs \(need.name), which neither \(runPathDescription) nor the system's folders provide; it "
      + "would load only because \(how), and would fail when loaded alone or before it — "
      + copyAdvice(need.name)
  }

  /// "copy the libX.so it was built against into FOLDER", which in a
  /// drop-in folder says how the copy is taken.
  func copyAdvice(_ library: String) -> String {
    let neighbour =
      inDropInFolder
      ? ", where it is loaded as the neighbour of the plugins that need it, not as a plugin" : ""
    return "copy the \(library) it was built against into \(folder)\(neighbour)"
  }

  /// The libraries the plugin ships beside it that lose to a different
  /// file of the same name another plugin loaded first.
  func conflicts(plugin: String) -> [SharedLibraryConflict] {
    needs.compactMap { need in
      guard let own = need.own, let loaded = need.loaded, own != loaded,
        case .plugin(let other) = need.loader, !Self.sameContents(own, loaded)
      else { return nil }
      return SharedLibraryConflict(
        library: need.name, plugin: plugin, pluginFile: file, ownCopy: own, loadedCopy: loaded,
        loadedBy: other)
    }
  }

  /// Whether two files hold the same bytes: copies of one build are one
  /// library to the loader's user, whatever folder they are in.
  static func sameContents(_ first: String, _ second: String) -> Bool {
    var (a, b) = (stat(), stat())
    guard stat(first, &a) == 0, stat(second, &b) == 0 else { return false }
    if a.st_dev == b.st_dev && a.st_ino == b.st_ino { return true }
    guard a.st_size == b.st_size, a.st_size <= maximumComparedSize,
      case .success(let one) = SHA256.hash(file: first),
      case .success(let other) = SHA256.hash(file: second)
    else { return false }
    return one == other
  }
}
