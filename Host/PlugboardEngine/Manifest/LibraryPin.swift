/// One member of the manifest's `libraryPins`: the SHA-256 of a library a
/// pinned plugin maps besides itself (a neighbour it finds through its
/// `$ORIGIN` run path, such as `libAppContracts.so`). Keyed by the
/// library's path, as a plugin's `path` is, so one pin covers a library
/// every plugin of its folder shares, and two builds of one library in two
/// folders each have their own.
package struct LibraryPin: Equatable, Sendable {
  /// The path as written: absolute, or relative to the manifest's folder.
  package let path: String
  /// 64 lower-case hexadecimal digits.
  package let sha256: String

  package init(path: String, sha256: String) {
    self.path = path
    self.sha256 = sha256
  }

  /// Where the pin is written, for messages: `libraryPins["lib/libX.so"]`.
  var place: String {
    "libraryPins[\"\(Terminal.sanitize(path))\"]"
  }
}
