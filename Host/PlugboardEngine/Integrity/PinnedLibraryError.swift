/// Why ``PinnedLibrary/open(_:expected:libraries:requirePins:)`` did not open
/// a pinned plugin.
enum PinnedLibraryError: Error, Equatable {
  /// The file could not be opened or read (or is not a regular file).
  case unreadable(SystemCallError)
  /// The file's SHA-256 is not the pin.
  case mismatch(expected: String, found: String)
  /// The dynamic section could not be read.
  case malformed(String)
  /// A run path entry uses `$ORIGIN` inside a longer path.
  case originInPath(String)
  /// A neighbour (`name`, found at `path`) could not be read to seal it.
  case neighbourUnreadable(name: String, path: String, SystemCallError)
  /// A neighbour's SHA-256 is not its pin, written at `place`.
  case neighbourMismatch(name: String, path: String, place: String, expected: String, found: String)
  /// `requirePins` is set and a neighbour has no pin.
  case neighbourUnpinned(name: String, path: String)
  /// `requirePins` is set and a library is found through a run path entry
  /// other than `$ORIGIN`, outside the system's and the toolchain's
  /// folders, where no sealed copy can take its place.
  case neighbourElsewhere(name: String, path: String, entry: String)
  /// A neighbour's run path entry uses `$ORIGIN` inside a longer path.
  case neighbourOriginInPath(name: String, path: String, String)
  /// A neighbour's dynamic section could not be read.
  case neighbourMalformed(name: String, path: String, String)
  /// The private folder could not be made.
  case privateFolder(SystemCallError)
  /// `dlopen` of the verified copy failed; the loader's message.
  case dlopen(String)

  /// The rest of the sentence after "plugin 'Auth' (/x/libAuth.so) ";
  /// `pin` is where the pin is written, `plugins[2].sha256`.
  func detail(pin: String) -> String {
    switch self {
    case .unreadable(let failure):
      "cannot be read to check its pin: \(failure)"
    case .mismatch(let expected, let found):
      "does not match its pin: \(pin) is \(expected), the file's SHA-256 is \(found) — if the new "
        + "file is trusted, run 'plugboard pin' to refresh the pins"
    case .malformed(let found):
      "is not a shared library that can be loaded: its dynamic section has \(found)"
    case .originInPath(let entry):
      "has the run path entry '\(entry)'; a pinned plugin can use $ORIGIN only as a whole entry "
        + "(its neighbours in its own folder) — rebuild it with that run path or remove \(pin)"
    case .neighbourUnreadable(let name, let path, let failure):
      "\(Self.needs(name, path)), which cannot be read to check its pin: \(failure)"
    case .neighbourMismatch(let name, let path, let place, let expected, let found):
      "\(Self.needs(name, path)), which does not match its pin: \(place) is \(expected), the file's SHA-256 is "
        + "\(found) — if the new file is trusted, run 'plugboard pin' to refresh the pins"
    case .neighbourUnpinned(let name, let path):
      "\(Self.needs(name, path)), which has no pin and the manifest sets \"requirePins\": true — run "
        + "'plugboard pin' to pin it, or add its SHA-256 to libraryPins"
    case .neighbourElsewhere(let name, let path, let entry):
      "\(Self.needs(name, path)) through the run path entry '\(Terminal.sanitize(entry))', where the dynamic "
        + "loader maps that file and not a sealed copy, so it cannot be pinned, and the manifest sets "
        + "\"requirePins\": true — ship it beside the plugin and rebuild with $ORIGIN as that run path entry, or "
        + "install it in a system folder"
    case .neighbourOriginInPath(let name, let path, let entry):
      "\(Self.needs(name, path)), which has the run path entry '\(Terminal.sanitize(entry))'; the libraries of a "
        + "pinned plugin can use $ORIGIN only as a whole entry — rebuild that library with $ORIGIN as a whole "
        + "run path entry, or remove \(pin)"
    case .neighbourMalformed(let name, let path, let found):
      "\(Self.needs(name, path)), which is not a shared library that can be loaded: its dynamic section has "
        + found
    case .privateFolder(let failure):
      "could not be loaded: cannot prepare its private folder: \(failure)"
    case .dlopen(let text):
      "could not be loaded: \(text)"
    }
  }

  /// "needs libX.so, which it loads from /srv/plugins/libX.so".
  private static func needs(_ name: String, _ path: String) -> String {
    "needs \(Terminal.sanitize(name)), which it loads from \(Terminal.sanitize(path))"
  }

  /// The dynamic loader's own text, when it gave one.
  var systemMessage: String? {
    switch self {
    case .dlopen(let text): text
    default: nil
    }
  }
}
