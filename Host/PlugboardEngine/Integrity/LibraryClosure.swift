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
  /// Copies a plugin ships that never run and differ from the file that
  /// runs instead (in `entry`): a plugin loaded before it, in every
  /// profile, maps a library of that name first, and the loader maps a
  /// name once. An identical copy is not one: it is what lets the plugin
  /// load alone, and loading refuses the plugin without it.
  package private(set) var shadowed: [Library] = []
  /// The libraries the plugins surveyed so far that load in every profile
  /// map, by name, in load order.
  private var mapped: [String: String] = [:]

  package init() {}

  /// Adds the libraries the loader would map for the library at `file`
  /// (canonical), as needed by `user`: the walk vetting makes
  /// (``LoaderClosure``), so `pin` pins the files the loader maps. Those
  /// found through `$ORIGIN` in the plugin's own folder, and theirs there,
  /// are sealed and can be pinned; any other outside the system's and the
  /// toolchain's folders cannot. A library whose dynamic section cannot be
  /// read adds none: loading it reports that.
  ///
  /// Plugins are added in load order; `everyProfile` says the plugin loads
  /// whatever the profile, so the libraries it maps are the ones later
  /// plugins get for those names.
  package mutating func add(neighboursOf file: String, user: String, everyProfile: Bool = false) {
    let folder = FilePath.directory(of: file)
    guard let info = ELFFile(path: file).dynamicInfo() else { return }
    let closure = LoaderClosure(
      folder: folder, needed: info.needed, runPath: info.runPath, mappedEarlier: mapped)
    if everyProfile {
      for library in closure.libraries where !library.loadedByPlugin { mapped[library.name] = library.file }
    }
    // A library needed by an unpinnable one is not named again: its
    // needer's warning covers it.
    for library in closure.libraries where library.origin == folder && !Neighbours.isTrusted(library.file) {
      if library.loadedByPlugin {
        guard let runs = mapped[library.name] else { continue }
        // The rule loading applies (``PluginNeeds/conflicts(plugin:)``):
        // a copy with the bytes of the file that runs is that library, and
        // the plugin needs it to load alone; only a different one is noted.
        if runs != library.file && !PluginNeeds.sameContents(runs, library.file) {
          Self.note(Library(file: library.file, users: [user], entry: runs), in: &shadowed)
        } else if libraries.contains(where: { $0.file == runs }) {
          Self.note(Library(file: runs, users: [user]), in: &libraries)
        } else if unpinnable.contains(where: { $0.file == runs }) {
          Self.note(Library(file: runs, users: [user]), in: &unpinnable)
        }
      } else if library.foundBeside {
        Self.note(Library(file: library.file, users: [user]), in: &libraries)
      } else {
        Self.note(Library(file: library.file, users: [user], entry: library.entry), in: &unpinnable)
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
