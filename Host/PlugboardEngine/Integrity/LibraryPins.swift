/// The manifest's `libraryPins` as the loader looks them up: by the
/// canonical path each leads to, so a pin written relative to the
/// manifest's folder, or through a link, covers the file the loader maps.
package struct LibraryPins {
  private let byFile: [String: LibraryPin]

  /// `pins` resolved against `directory`, the manifest's folder; of two
  /// pins of one file, the first written is kept.
  init(_ pins: [LibraryPin], directory: String) {
    var byFile: [String: LibraryPin] = [:]
    for pin in pins {
      let absolute = FilePath.absolute(pin.path, relativeTo: directory)
      let file = FilePath.canonical(absolute) ?? absolute
      if byFile[file] == nil { byFile[file] = pin }
    }
    self.byFile = byFile
  }

  /// The pin of the library at `file` (canonical), if any.
  package func pin(for file: String) -> LibraryPin? {
    byFile[file]
  }
}
