#if canImport(Glibc)
  import Glibc
#endif

/// What is at a path, as far as loading a library from it goes.
enum FileKind {
  case regular
  case directory
  /// A device, socket, FIFO, symbolic link…: opening one could block or do
  /// harm.
  case other

  /// The kind of the existing file at `path`, not following a final link
  /// (a link is `other`). One `lstat`: Foundation's file attributes would
  /// also list extended attributes and look the owner's and group's names
  /// up in the user database (files, or sockets to nscd), for each file.
  static func of(_ path: String) -> FileKind {
    var status = stat()
    guard lstat(path, &status) == 0 else { return .other }
    return kind(of: status)
  }

  /// The kind of what `path` leads to, following links, as the dynamic
  /// loader does when it searches a folder.
  static func following(_ path: String) -> FileKind {
    var status = stat()
    guard stat(path, &status) == 0 else { return .other }
    return kind(of: status)
  }

  /// The kind of the file whose status is `status`.
  static func kind(of status: stat) -> FileKind {
    switch status.st_mode & S_IFMT {
    case S_IFREG: return .regular
    case S_IFDIR: return .directory
    default: return .other
    }
  }
}
