/// Why ``PinnedLibrary/open(_:expected:)`` did not open a pinned plugin.
enum PinnedLibraryError: Error, Equatable {
  /// The file could not be opened or read (or is not a regular file).
  case unreadable(SystemCallError)
  /// The file's SHA-256 is not the pin.
  case mismatch(expected: String, found: String)
  /// The dynamic section could not be read.
  case malformed(String)
  /// A run path entry uses `$ORIGIN` inside a longer path.
  case originInPath(String)
  /// A neighbour failed to load; the loader's message.
  case neighbour(path: String, String)
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
    case .neighbour(let path, let text):
      "could not be loaded: its neighbour \(path) failed to load: \(text)"
    case .privateFolder(let failure):
      "could not be loaded: cannot prepare its private folder: \(failure)"
    case .dlopen(let text):
      "could not be loaded: \(text)"
    }
  }

  /// The dynamic loader's own text, when it gave one.
  var systemMessage: String? {
    switch self {
    case .neighbour(_, let text), .dlopen(let text): text
    default: nil
    }
  }
}
