import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Opens a plugin whose SHA-256 is pinned, loading exactly the bytes that
/// were hashed, and the same for every library it finds beside it, while
/// keeping its `$ORIGIN` run path working. See SECURITY.md, "Integrity
/// pins", for why it is done this way.
///
/// 1. The file is opened once, without following a final link, and copied
///    into a sealed memory file while it is hashed (``SealedCopy``); the
///    original is not read again.
/// 2. A mismatch stops here: nothing of the file has run.
/// 3. Its neighbours (the `DT_NEEDED` libraries its `$ORIGIN` run path finds
///    in its real folder and that are not loaded yet), and theirs in turn,
///    are copied and hashed the same way and held to their `libraryPins`;
///    a mismatch, or with `requirePins` a neighbour without a pin, stops
///    here too, before anything is mapped. So does, with `requirePins`, a
///    library the run path finds in another folder that is not the
///    system's or the toolchain's: the loader would map that file, not a
///    copy.
/// 4. The copy is opened through a link in a private folder
///    (``PrivateOrigin``) that links each neighbour's name to its sealed
///    copy, so every `$ORIGIN` lookup, the plugin's and its neighbours',
///    finds only verified bytes. The links are removed when `dlopen`
///    returns, the folder when the bring-up has opened every plugin
///    (``PrivateOrigins``).
enum PinnedLibrary {
  /// The opened library, or why it was not opened. `expected` is the pin:
  /// 64 lower-case hexadecimal digits. `file` is absolute and canonical.
  /// `libraries` are the neighbours' pins; with `requirePins` a neighbour
  /// without one is refused, else it is loaded from an unchecked sealed
  /// copy (the bytes it would have loaded, read once). The private folder
  /// it is loaded from is announced to `progress`.
  static func open(
    _ file: String, expected: String, libraries: LibraryPins, requirePins: Bool, origins: PrivateOrigins,
    progress: ChildSession
  ) -> Result<DynamicLibrary, PinnedLibraryError> {
    let copy: SealedCopy
    switch seal(file) {
    case .success(let made): copy = made
    case .failure(let failure): return .failure(.unreadable(failure))
    }
    defer { copy.close() }
    guard copy.digest.hex == expected else {
      return .failure(.mismatch(expected: expected, found: copy.digest.hex))
    }
    let info: ELFDynamicInfo
    switch ELFDynamicInfo.read(copy.descriptor) {
    case .success(let read): info = read
    case .failure(let defect): return .failure(.malformed(defect.found))
    }
    var neighbours: [SealedNeighbour] = []
    defer { for neighbour in neighbours { neighbour.copy.close() } }
    if case .failure(let failure) = sealNeighbours(
      of: info, folder: FilePath.directory(of: file), libraries: libraries, requirePins: requirePins,
      into: &neighbours)
    {
      return .failure(failure)
    }
    return openPrivately(file, copy: copy, neighbours: neighbours, origins: origins, progress: progress)
  }

  /// Opens the sealed `copy` of `file` with its sealed `neighbours`, by
  /// links that last as long as `dlopen` in the bring-up's private folder
  /// (`origins`, announced to `progress` when it is made); what the loader
  /// says is told in the real files' names. Signed plugins are opened the
  /// same way.
  static func openPrivately(
    _ file: String, copy: SealedCopy, neighbours: [SealedNeighbour], origins: PrivateOrigins,
    progress: ChildSession
  ) -> Result<DynamicLibrary, PinnedLibraryError> {
    let name = String(file[file.index(after: file.lastIndex(of: "/") ?? file.startIndex)...])
    let links = neighbours.map { (name: $0.name, path: $0.copy.procPath) }
    switch origins.folder(announcingTo: progress).flatMap({
      $0.linking(library: name, target: copy.procPath, neighbours: links)
    }) {
    case .failure(let failure): return .failure(.privateFolder(failure))
    case .success(let origin):
      defer { origins.release(origin) }
      // The loader names what it maps by the private links; the ledger of
      // loaded libraries, and every message, by the real files.
      let folder = FilePath.directory(of: origin.libraryPath)
      LoadedLibraries.expect(origin.libraryPath, file: file)
      for neighbour in neighbours {
        LoadedLibraries.expect(folder + "/" + neighbour.name, file: neighbour.path)
      }
      return DynamicLibrary.open(origin.libraryPath).mapError { error in
        var text = error.text.replacingOccurrences(of: origin.libraryPath, with: file)
        for neighbour in neighbours {
          text = text.replacingOccurrences(of: folder + "/" + neighbour.name, with: neighbour.path)
        }
        return .dlopen(text)
      }
    }
  }

  /// A neighbour as it will be mapped: the name the loader looks for, its
  /// real file (canonical), and the sealed copy of that file.
  struct SealedNeighbour {
    let name: String
    let path: String
    let copy: SealedCopy
  }

  /// Adds to `sealed` the neighbours of `info` found in `folder`, then
  /// theirs, each once, sealed and checked against its pin.
  private static func sealNeighbours(
    of info: ELFDynamicInfo, folder: String, libraries: LibraryPins, requirePins: Bool,
    into sealed: inout [SealedNeighbour]
  ) -> Result<Void, PinnedLibraryError> {
    // Each dynamic section still to follow, with the neighbour it is of
    // (nil: the plugin's own).
    var pending: [(info: ELFDynamicInfo, of: SealedNeighbour?)] = [(info, nil)]
    while let (next, owner) = pending.popLast() {
      let found: [(name: String, path: String)]
      switch Neighbours.find(next, folder: folder) {
      case .success(let neighbours):
        if requirePins, let (name, path, entry) = neighbours.elsewhere.first {
          return .failure(
            .neighbourElsewhere(name: name, path: FilePath.canonical(path) ?? path, entry: entry))
        }
        found = neighbours.beside
      case .failure(.originInPath(let entry)):
        guard let owner else { return .failure(.originInPath(entry)) }
        return .failure(.neighbourOriginInPath(name: owner.name, path: owner.path, entry))
      case .failure(let failure): return .failure(failure)
      }
      for (name, path) in found where !sealed.contains(where: { $0.name == name }) {
        let file = FilePath.canonical(path) ?? path
        let pin = libraries.pin(for: file)
        if pin == nil, requirePins { return .failure(.neighbourUnpinned(name: name, path: file)) }
        let copy: SealedCopy
        switch seal(file) {
        case .success(let made): copy = made
        case .failure(let failure): return .failure(.neighbourUnreadable(name: name, path: file, failure))
        }
        let neighbour = SealedNeighbour(name: name, path: file, copy: copy)
        sealed.append(neighbour)
        if let pin, copy.digest.hex != pin.sha256 {
          return .failure(
            .neighbourMismatch(
              name: name, path: file, place: pin.place, expected: pin.sha256, found: copy.digest.hex))
        }
        switch ELFDynamicInfo.read(copy.descriptor) {
        case .success(let read): pending.append((read, neighbour))
        case .failure(let defect): return .failure(.neighbourMalformed(name: name, path: file, defect.found))
        }
      }
    }
    return .success(())
  }

  /// A sealed copy of `file`, opened without following a final link, with
  /// the `digests` asked for taken on the way.
  static func seal(_ file: String, digests: SealedCopy.Digests = .sha256) -> Result<
    SealedCopy, SystemCallError
  > {
    RegularFile.open(file).flatMap { source in
      defer { close(source) }
      return SealedCopy.make(from: source, name: file, digests: digests)
    }
  }
}
