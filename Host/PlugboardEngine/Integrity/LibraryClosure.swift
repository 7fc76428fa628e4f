/// The libraries `plugboard pin` pins besides the plugins: every neighbour
/// a pinned plugin would load from a sealed copy (``PinnedLibrary``), found
/// as the loader finds them, from the files alone (nothing is opened with
/// `dlopen`).
package struct LibraryClosure {
  /// One library: its canonical file and the plugins that need it, in the
  /// order they were surveyed.
  package struct Library: Equatable {
    package let file: String
    package var users: [String]
    /// For an unpinnable library, the run path entry that finds it.
    package var entry: String? = nil
  }

  package private(set) var libraries: [Library] = []
  /// Libraries the run path finds in a folder other than their plugin's
  /// own that is neither the system's nor the toolchain's, with the entry
  /// that finds them: they cannot be pinned (``Neighbours/Found``).
  package private(set) var unpinnable: [Library] = []

  package init() {}

  /// Adds the neighbours of the library at `file` (canonical), and theirs,
  /// as needed by `user`. A library whose dynamic section cannot be read,
  /// or whose run path the loader refuses for a pinned plugin, adds none:
  /// loading it reports that.
  package mutating func add(neighboursOf file: String, user: String) {
    let folder = FilePath.directory(of: file)
    guard let info = ELFFile(path: file).dynamicInfo() else { return }
    var pending = [info]
    var seen: Set<String> = []
    while let next = pending.popLast() {
      guard case .success(let found) = Neighbours.find(next, folder: folder) else { continue }
      for (name, path, entry) in found.elsewhere where seen.insert(name).inserted {
        Self.note(
          Library(file: FilePath.canonical(path) ?? path, users: [user], entry: entry), in: &unpinnable)
      }
      for (name, path) in found.beside where seen.insert(name).inserted {
        let neighbour = FilePath.canonical(path) ?? path
        Self.note(Library(file: neighbour, users: [user]), in: &libraries)
        if let more = ELFFile(path: neighbour).dynamicInfo() { pending.append(more) }
      }
    }
  }

  /// Adds `library` to `list`, or its user to the same file's entry.
  private static func note(_ library: Library, in list: inout [Library]) {
    guard let index = list.firstIndex(where: { $0.file == library.file }) else { return list.append(library) }
    for user in library.users where !list[index].users.contains(user) { list[index].users.append(user) }
  }

  /// How `pin` writes `file` as a key of `libraryPins`: relative to
  /// `directory` (the manifest's folder) when it lies inside it, as a
  /// plugin's `path` usually is, else absolute.
  package static func key(for file: String, directory: String) -> String {
    let prefix = directory == "/" ? "/" : directory + "/"
    return file.hasPrefix(prefix) ? String(file.dropFirst(prefix.count)) : file
  }
}
