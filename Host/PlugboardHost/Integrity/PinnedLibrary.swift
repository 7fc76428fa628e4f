import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Opens a plugin whose SHA-256 is pinned, loading exactly the bytes that
/// were hashed while keeping its `$ORIGIN` run path working. See
/// SECURITY.md, "Integrity pins", for why it is done this way.
///
/// 1. The file is opened once, without following a final link, and copied
///    into a sealed memory file while it is hashed (``SealedCopy``); the
///    original is not read again.
/// 2. A mismatch stops here: nothing of the file has run.
/// 3. The plugin's neighbours (its `DT_NEEDED` libraries that its `$ORIGIN`
///    run path finds in its real folder and that are not loaded yet) are
///    opened by their real paths, so they load once, under their own names.
/// 4. The copy is opened through a link in a private folder
///    (``PrivateOrigin``) that also links those neighbours, so `$ORIGIN`
///    lookups find the very files already loaded. The folder is removed
///    when `dlopen` returns.
enum PinnedLibrary {
  /// The opened library, or why it was not opened. `expected` is the pin:
  /// 64 lower-case hexadecimal digits. `file` is absolute and canonical.
  static func open(_ file: String, expected: String) -> Result<DynamicLibrary, PinnedLibraryError> {
    let copy: SealedCopy
    switch RegularFile.open(file).flatMap({ source in
      defer { close(source) }
      return SealedCopy.make(from: source, name: file)
    }) {
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
    let folder = FilePath.directory(of: file)
    let neighbours: [(name: String, path: String)]
    switch Neighbours.find(info, folder: folder) {
    case .success(let found): neighbours = found
    case .failure(let failure): return .failure(failure)
    }
    for neighbour in neighbours {
      if case .failure(let error) = DynamicLibrary.open(neighbour.path) {
        return .failure(.neighbour(path: neighbour.path, error.text))
      }
    }
    let name = String(file[file.index(after: file.lastIndex(of: "/") ?? file.startIndex)...])
    switch PrivateOrigin.make(library: name, target: copy.procPath, neighbours: neighbours) {
    case .failure(let failure): return .failure(.privateFolder(failure))
    case .success(let origin):
      // Told to the supervising parent, which removes the folder if this
      // process dies inside `dlopen` (a crashing constructor).
      Progress.report(.privateFolder(origin.folder))
      defer {
        origin.remove()
        Progress.report(.privateFolder(nil))
      }
      // The loader's messages name the private link; say the real file.
      return DynamicLibrary.open(origin.libraryPath).mapError {
        .dlopen($0.text.replacingOccurrences(of: origin.libraryPath, with: file))
      }
    }
  }
}
