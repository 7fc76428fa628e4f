#if canImport(Glibc)
  import Glibc
#endif

/// The libraries a pinned plugin finds through `$ORIGIN`: what is sealed,
/// held to its pin, and linked in the private folder; and what `plugboard
/// pin` pins besides the plugin.
enum Neighbours {
  /// What one library's run path finds for its `DT_NEEDED` names.
  struct Found {
    /// Found in its own folder through a `$ORIGIN` entry before any other
    /// entry finds it: sealed and linked in the private folder, where the
    /// loader then finds the copy instead.
    var beside: [(name: String, path: String)] = []
    /// Found first through another entry, in a folder that is neither the
    /// system's nor the toolchain's. The loader searches that folder by
    /// its real path, so no sealed copy can take the library's place: it
    /// cannot be pinned, and with `requirePins` it is refused.
    var elsewhere: [(name: String, path: String, entry: String)] = []
  }

  /// Each `DT_NEEDED` name (without a `/`) that is not loaded under that
  /// name already, by where the run path finds it; `folder` is `$ORIGIN`.
  /// A run path entry that uses `$ORIGIN` as part of a longer path is
  /// refused: resolved against the private folder it would lead elsewhere.
  static func find(_ info: ELFDynamicInfo, folder: String) -> Result<Found, PinnedLibraryError> {
    let origins: Set = ["$ORIGIN", "${ORIGIN}"]
    // The standard library's search, not Foundation's `contains`, which
    // bridges each entry to an NSString.
    let mixed = info.runPath.first { $0.firstRange(of: "ORIGIN") != nil && !origins.contains($0) }
    if let entry = mixed { return .failure(.originInPath(entry)) }
    var found = Found()
    // Each folder's subfolders listed once for all the names searched.
    let subfolders = LoaderClosure.SubfolderCache()
    for name in info.needed where !name.utf8.contains(UInt8(ascii: "/")) && !isLoaded(name) {
      for entry in info.runPath {
        // As the loader searches, and as vetting and `pin` found it
        // (``LoaderClosure``): the subfolders it tries first, then the folder.
        let base = origins.contains(entry) ? folder : entry
        guard let candidate = subfolders.find(name, in: base) else { continue }
        if origins.contains(entry) {
          found.beside.append((name, candidate))
        } else if !isTrusted(candidate) {
          found.elsewhere.append((name, candidate, entry))
        }
        break
      }
    }
    return .success(found)
  }

  /// Whether a library is loaded under `name`, as the dynamic loader would
  /// match a `DT_NEEDED` entry before searching any folder.
  private static func isLoaded(_ name: String) -> Bool {
    dlopen(name, RTLD_LAZY | RTLD_NOLOAD) != nil
  }

  /// A library of the system's folders, or of the folder the Swift runtime
  /// plugboard runs on was loaded from (the toolchain's): trusted as the C
  /// library is (SECURITY.md, "Threat model"), vetted but not pinned.
  static func isTrusted(_ path: String) -> Bool {
    let file = FilePath.canonical(path) ?? path
    return PluginNeeds.isSystemFile(file)
      || toolchainFolder.map { FilePath.directory(of: file) == $0 } == true
  }

  private static let toolchainFolder = LoadedLibraries.file(loadedAs: "libswiftCore.so").map {
    FilePath.directory(of: FilePath.canonical($0) ?? $0)
  }
}
