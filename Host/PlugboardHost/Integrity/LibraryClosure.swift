/// The libraries `plugboard pin` pins besides the plugins: every neighbour
/// a pinned plugin would load from a sealed copy (``PinnedLibrary``), found
/// as the loader finds them, from the files alone (nothing is opened with
/// `dlopen`).
struct LibraryClosure {
  /// One library: its canonical file and the plugins that need it, in the
  /// order they were surveyed.
  struct Library: Equatable {
    let file: String
    var users: [String]
  }

  private(set) var libraries: [Library] = []

  /// Adds the neighbours of the library at `file` (canonical), and theirs,
  /// as needed by `user`. A library whose dynamic section cannot be read,
  /// or whose run path the loader refuses for a pinned plugin, adds none:
  /// loading it reports that.
  mutating func add(neighboursOf file: String, user: String) {
    let folder = FilePath.directory(of: file)
    guard let info = ELFFile(path: file).dynamicInfo() else { return }
    var pending = [info]
    var seen: Set<String> = []
    while let next = pending.popLast() {
      guard case .success(let found) = Neighbours.find(next, folder: folder) else { continue }
      for (name, path) in found where seen.insert(name).inserted {
        let neighbour = FilePath.canonical(path) ?? path
        if let index = libraries.firstIndex(where: { $0.file == neighbour }) {
          if !libraries[index].users.contains(user) { libraries[index].users.append(user) }
        } else {
          libraries.append(Library(file: neighbour, users: [user]))
        }
        if let more = ELFFile(path: neighbour).dynamicInfo() { pending.append(more) }
      }
    }
  }

  /// How `pin` writes `file` as a key of `libraryPins`: relative to
  /// `directory` (the manifest's folder) when it lies inside it, as a
  /// plugin's `path` usually is, else absolute.
  static func key(for file: String, directory: String) -> String {
    let prefix = directory == "/" ? "/" : directory + "/"
    return file.hasPrefix(prefix) ? String(file.dropFirst(prefix.count)) : file
  }
}
