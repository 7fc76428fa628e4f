#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Path arithmetic on plain strings, POSIX style, without touching the disk
/// (except ``canonical(_:)`` and ``currentDirectory``).
enum FilePath {
  /// `path` made absolute against `base` and with `.` and `..` resolved
  /// lexically.
  static func absolute(_ path: String, relativeTo base: String) -> String {
    normalize(path.hasPrefix("/") ? path : base + "/" + path)
  }

  /// The folder containing `path` (which is absolute).
  static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// The current working directory, or "." if it cannot be read (it was
  /// deleted under us, say).
  static var currentDirectory: String {
    guard let buffer = getcwd(nil, 0) else { return "." }
    defer { free(buffer) }
    return String(cString: buffer)
  }

  /// The canonical absolute path, following symbolic links, or `nil` when
  /// some component does not exist. Loading by canonical path makes the
  /// same library reached by two names one library.
  static func canonical(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// Whether following the links of `path` goes round in a loop (ELOOP).
  static func isLinkLoop(_ path: String) -> Bool {
    guard let resolved = realpath(path, nil) else { return errno == ELOOP }
    free(resolved)
    return false
  }

  private static func normalize(_ path: String) -> String {
    var parts: [Substring] = []
    for part in path.split(separator: "/", omittingEmptySubsequences: true) {
      switch part {
      case ".": continue
      case "..": _ = parts.popLast()
      default: parts.append(part)
      }
    }
    return "/" + parts.joined(separator: "/")
  }
}
