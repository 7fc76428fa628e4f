#if canImport(Glibc)
  import Glibc
#endif

/// The libraries a pinned plugin finds through `$ORIGIN`: what is sealed,
/// held to its pin, and linked in the private folder; and what `plugboard
/// pin` pins besides the plugin.
enum Neighbours {
  /// Each `DT_NEEDED` name (without a `/`) that is not loaded under that
  /// name already and that the run path finds in `folder` through a
  /// `$ORIGIN` entry before any other entry finds it, with its path there.
  /// A run path entry that uses `$ORIGIN` as part of a longer path is
  /// refused: resolved against the private folder it would lead elsewhere.
  static func find(_ info: ELFDynamicInfo, folder: String)
    -> Result<[(name: String, path: String)], PinnedLibraryError>
  {
    let origins: Set = ["$ORIGIN", "${ORIGIN}"]
    if let entry = info.runPath.first(where: { $0.contains("ORIGIN") && !origins.contains($0) }) {
      return .failure(.originInPath(entry))
    }
    guard info.runPath.contains(where: origins.contains) else { return .success([]) }
    var found: [(name: String, path: String)] = []
    for name in info.needed where !name.contains("/") && !isLoaded(name) {
      for entry in info.runPath {
        let candidate = (origins.contains(entry) ? folder : entry) + "/" + name
        guard isRegularFile(candidate) else { continue }
        if origins.contains(entry) { found.append((name, candidate)) }
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

  private static func isRegularFile(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
  }
}
