import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// What the dynamic loader holds in this process, and which plugin's
/// loading brought each library in: the facts an unresolved symbol or a
/// library two plugins ship is explained with.
///
/// `dl_iterate_phdr` and `dlinfo` are looked up at run time: the C library
/// declares them only for `_GNU_SOURCE`, which Swift's Glibc module is not
/// built with. Both read structures whose first fields glibc keeps stable
/// (`struct dl_phdr_info`, `struct link_map`).
enum LoadedLibraries {
  /// Who brought a loaded library in.
  enum Loader: Equatable, Sendable {
    /// It was there before any plugin was opened: plugboard's own.
    case host
    /// Opening this plugin (by manifest name) loaded it.
    case plugin(String)
  }

  /// Who loaded which library, by canonical path, and the canonical path
  /// of each name the loader reported (so each is resolved once).
  private struct Ledger: Sendable {
    var loaders: [String: Loader] = [:]
    var canonical: [String: String] = [:]
    /// The folders of the canonical paths found so far: canonical
    /// themselves, so a name in one of them that is not a link is
    /// canonical as it is.
    var canonicalFolders: Set<String> = []
    /// The loaded objects already looked at, so each record reads the
    /// names of only those loaded since.
    var seen = SeenObjects()
    /// Names `DT_NEEDED` entries match plugboard's own libraries by, with
    /// their canonical paths: those never unload nor change hands.
    var hostNames: [String: String] = [:]
    /// The real files of the names a pinned plugin's libraries are about to
    /// be mapped under (links in a private folder that is gone when they are
    /// recorded, whose names a later folder may reuse); see
    /// ``LoadedLibraries/expect(_:file:)``.
    var expected: [String: String] = [:]
    /// The canonical folders of the folders held open for the loader
    /// (`/proc/self/fd/<dirfd>`, see ``HeldFolder``), which the loader names
    /// every library it maps from them by: their descriptors are never
    /// closed, so each name keeps its folder for the life of the process.
    var heldFolders: [String: String] = [:]

    /// Records the libraries loaded now that are not recorded yet;
    /// `opened`, the canonical path the loader was just given, needs no
    /// resolving.
    mutating func record(_ loader: Loader, opened: String? = nil) {
      defer { expected = [:] }
      for name in names(notIn: &seen) where canonical[name] == nil || expected[name] != nil {
        guard let path = expected[name] ?? (name == opened ? name : canonicalPath(name)) else { continue }
        canonical[name] = path
        if loaders[path] == nil { loaders[path] = loader }
      }
    }

    /// `name`'s canonical path: one `readlink` when its folder is known to
    /// be canonical (every plugin of a folder after the first, each library
    /// of the toolchain's folder after the first), else `realpath`'s walk
    /// of every component.
    private mutating func canonicalPath(_ name: String) -> String? {
      let folder = FilePath.directory(of: name)
      if canonicalFolders.contains(folder), FilePath.isNotLink(name) { return name }
      // The held folder's own name, not the walk of /proc/self/fd/N.
      if let held = heldFolders[folder] {
        let file = held + String(name.dropFirst(folder.count))
        return FilePath.isNotLink(file) ? file : FilePath.canonical(file)
      }
      guard let path = FilePath.canonical(name) else { return nil }
      canonicalFolders.insert(FilePath.directory(of: path))
      return path
    }
  }

  /// The libraries loaded at the first use are plugboard's own.
  private static let ledger = Mutex<Ledger>(
    {
      var ledger = Ledger()
      ledger.record(.host)
      return ledger
    }())

  /// Takes the libraries loaded now as plugboard's own, on the first call;
  /// later calls do nothing. Call before the first plugin is opened.
  static func noteHostLibraries() {
    ledger.withLock { _ in }
  }

  /// A loaded object as `dl_iterate_phdr` tells them apart: where it is
  /// mapped and where the loader keeps its name.
  private struct LoadedObject: Hashable, Sendable {
    let base: UInt
    let name: UInt
  }

  /// The loaded objects looked at so far, in the loader's order as last
  /// walked, and as a set. The loader lists objects in the order they were
  /// loaded and plugboard never unloads one, so a walk after each plugin
  /// finds the earlier objects at the same positions: those cost a
  /// comparison with ``order``, not a hash (at 200 plugins a hash of every
  /// object after each plugin was 3 % of `list`). An object at another
  /// position (something was unloaded) is still found in ``set``.
  private struct SeenObjects: Sendable {
    var order: [LoadedObject] = []
    var set: Set<LoadedObject> = []

    /// Whether `object`, walked at `position`, is new; it is seen from now.
    mutating func isNew(_ object: LoadedObject, at position: Int) -> Bool {
      if position < order.count, order[position] == object { return false }
      return set.insert(object).inserted
    }
  }

  /// The names of the libraries loaded that are not in `seen`, as the
  /// loader reports them, in its order, adding them to `seen`; those that
  /// are not absolute paths (the program, the vDSO) are left out. Objects
  /// already seen cost a comparison, not a string.
  private static func names(notIn seen: inout SeenObjects) -> [String] {
    typealias Callback = @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?) -> Int32
    typealias Iterate = @convention(c) (Callback, UnsafeMutableRawPointer?) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "dl_iterate_phdr") else { return [] }
    let iterate = unsafeBitCast(symbol, to: Iterate.self)
    typealias Walk = (seen: SeenObjects, walked: [LoadedObject], names: [String])
    var walk: Walk = (seen, [], [])
    walk.walked.reserveCapacity(seen.order.count + 16)
    withUnsafeMutablePointer(to: &walk) { context in
      _ = iterate(
        { info, _, context in
          // dlpi_name follows dlpi_addr.
          guard let info, let context,
            let name = info.load(fromByteOffset: MemoryLayout<UInt>.size, as: UnsafePointer<CChar>?.self)
          else { return 0 }
          let walk = context.assumingMemoryBound(to: Walk.self)
          let object = LoadedObject(base: info.load(as: UInt.self), name: UInt(bitPattern: name))
          let position = walk.pointee.walked.count
          walk.pointee.walked.append(object)
          guard walk.pointee.seen.isNew(object, at: position) else { return 0 }
          walk.pointee.names.append(String(cString: name))
          return 0
        }, context)
    }
    seen = walk.seen
    seen.order = walk.walked
    return walk.names.filter { $0.hasPrefix("/") }
  }

  /// The names of every library loaded, as the loader reports them, in its
  /// order; those that are not absolute paths (the program, the vDSO) are
  /// left out.
  private static func names() -> [String] {
    var none = SeenObjects()
    return names(notIn: &none)
  }

  /// The canonical path of the library a `DT_NEEDED` entry `name` would be
  /// matched with without any search, or nil when none is loaded under it.
  static func file(loadedAs name: String) -> String? {
    typealias Info = @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeMutableRawPointer?) -> Int32
    let linkMapRequest: Int32 = 2  // RTLD_DI_LINKMAP
    guard let handle = dlopen(name, RTLD_LAZY | RTLD_NOLOAD),
      let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "dlinfo")
    else { return nil }
    var map: UnsafeMutableRawPointer?
    guard unsafeBitCast(symbol, to: Info.self)(handle, linkMapRequest, &map) == 0, let map,
      // l_name follows l_addr.
      let path = map.load(fromByteOffset: MemoryLayout<UInt>.size, as: UnsafePointer<CChar>?.self)
    else { return nil }
    let name = String(cString: path)
    return ledger.withLock { $0.canonical[name] } ?? FilePath.canonical(name)
  }

  /// The library a `DT_NEEDED` entry `name` would be matched with without
  /// any search (canonical), and who loaded it; nil when none is loaded
  /// under it. A match with plugboard's own library is remembered: a
  /// plugin needs a dozen of those, and every plugin the same ones.
  static func match(loadedAs name: String) -> (file: String, loader: Loader?)? {
    if let file = ledger.withLock({ $0.hostNames[name] }) { return (file, .host) }
    guard let file = file(loadedAs: name) else { return nil }
    let loader = loader(of: file)
    if loader == .host { ledger.withLock { $0.hostNames[name] = file } }
    return (file, loader)
  }

  /// The loaded library whose file is called `fileName` (`libX.so`), if any.
  static func file(named fileName: String) -> String? {
    names().first { $0.hasSuffix("/" + fileName) }.flatMap(FilePath.canonical)
  }

  /// The recorded file (canonical) of the loaded object holding `address`,
  /// by the name the loader keeps for it: for a pinned plugin's libraries,
  /// mapped from sealed copies through links now gone, the real file. Nil
  /// when no object holds it or its name is not recorded.
  static func recordedFile(containing address: UnsafeRawPointer) -> String? {
    typealias Address = @convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "dladdr") else { return nil }
    // Dl_info: the object's name and base, the symbol's name and address.
    var info: (UnsafePointer<CChar>?, UnsafeRawPointer?, UnsafePointer<CChar>?, UnsafeRawPointer?) = (
      nil, nil, nil, nil
    )
    let found = withUnsafeMutablePointer(to: &info) {
      unsafeBitCast(symbol, to: Address.self)(address, UnsafeMutableRawPointer($0))
    }
    guard found != 0, let name = info.0 else { return nil }
    let loaded = String(cString: name)
    return ledger.withLock { $0.canonical[loaded] }
  }

  /// Tells every later ``attribute(to:file:)`` that the libraries the
  /// loader maps from `loaderFolder`, a folder held open for it, are in
  /// `folder` (canonical).
  static func holdFolder(_ loaderFolder: String, is folder: String) {
    ledger.withLock { $0.heldFolders[loaderFolder] = folder }
  }

  /// Tells the next ``attribute(to:file:)`` that a library the loader maps
  /// under `name` (a private folder's link) is the canonical `file`.
  static func expect(_ name: String, file: String) {
    ledger.withLock { $0.expected[name] = file }
  }

  /// Records every library loaded since the last call as brought in by
  /// `plugin`. Call after each attempt to open a plugin: a library a failed
  /// `dlopen` loaded is unloaded again and so never recorded.
  /// `file` is the canonical path the plugin was opened by.
  static func attribute(to plugin: String, file: String) {
    ledger.withLock { $0.record(.plugin(plugin), opened: file) }
  }

  /// The libraries (canonical) that opening plugins brought in, the
  /// plugins' own files among them, as recorded so far.
  static func broughtInByPlugins() -> [String] {
    ledger.withLock { ledger in ledger.loaders.compactMap { $0.value == .host ? nil : $0.key } }
  }

  /// Who loaded the library at `path` (canonical); nil when it is not
  /// recorded (loaded since the last ``attribute(to:file:)``).
  static func loader(of path: String) -> Loader? {
    ledger.withLock { $0.loaders[path] }
  }
}
