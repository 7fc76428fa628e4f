#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Path arithmetic on plain strings, POSIX style, without touching the disk
/// (except ``canonical(_:)`` and ``currentDirectory``).
package enum FilePath {
  /// `path` made absolute against `base`, with `.` components and repeated
  /// slashes dropped. `..` is kept: only the file system knows what it
  /// means, since `x/..` is the parent of wherever the link `x` leads, not
  /// the folder that holds `x`. ``canonical(_:)`` resolves it as the kernel does.
  package static func absolute(_ path: String, relativeTo base: String) -> String {
    let joined = path.hasPrefix("/") ? path : base + "/" + path
    if isPlain(joined) { return joined }
    let parts = joined.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
    return "/" + parts.joined(separator: "/")
  }

  /// Whether the absolute `path` is already as ``absolute(_:relativeTo:)``
  /// makes it: no empty or `.` component, no trailing slash.
  private static func isPlain(_ path: String) -> Bool {
    var previous = UInt8(ascii: "/")
    var dotAfterSlash = false
    for byte in path.utf8.dropFirst() {
      if byte == UInt8(ascii: "/") {
        if previous == UInt8(ascii: "/") || dotAfterSlash { return false }
      }
      dotAfterSlash = byte == UInt8(ascii: ".") && previous == UInt8(ascii: "/") ? true : false
      previous = byte
    }
    return path.hasPrefix("/") && (path.utf8.count == 1 || (previous != UInt8(ascii: "/") && !dotAfterSlash))
  }

  /// The folder containing `path` (which is absolute).
  package static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// The nearest folder above `path` (absolute) that `exists` says does,
  /// or `/`: what decides who could create the folders below it.
  package static func nearestFolder(above path: String, where exists: (String) -> Bool) -> String {
    var folder = directory(of: path)
    while folder != "/", !exists(folder) { folder = directory(of: folder) }
    return folder
  }

  /// The current working directory, or nil when it cannot be determined
  /// (it was deleted, or a folder above it cannot be read).
  package static var currentDirectory: String? {
    guard let buffer = getcwd(nil, 0) else { return nil }
    defer { free(buffer) }
    return String(cString: buffer)
  }

  /// The canonical absolute path, following symbolic links, or `nil` when
  /// some component does not exist. Loading by canonical path makes the
  /// same library reached by two names one library.
  package static func canonical(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// Whether `path` names an existing file that is not a symbolic link.
  static func isNotLink(_ path: String) -> Bool {
    var byte: CChar = 0
    return readlink(path, &byte, 1) < 0 && errno == EINVAL
  }

  /// What the symbolic link `path` holds, as written; nil when it is not a
  /// link, cannot be read, or holds more than a path can.
  static func linkTarget(_ path: String) -> String? {
    let capacity = Int(PATH_MAX)
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
      guard let base = buffer.baseAddress else { return nil }
      let length = base.withMemoryRebound(to: CChar.self, capacity: capacity) { readlink(path, $0, capacity) }
      guard length > 0, length < capacity else { return nil }
      return String(decoding: UnsafeBufferPointer(start: base, count: length), as: UTF8.self)
    }
  }

  /// Whether following the links of `path` goes round in a loop (ELOOP).
  static func isLinkLoop(_ path: String) -> Bool {
    guard let resolved = realpath(path, nil) else { return errno == ELOOP }
    free(resolved)
    return false
  }

  /// The names in `folder` (without `.` and `..`), in the order the file
  /// system returns them, at most `limit + 1` of them: a caller that gets
  /// more than `limit` knows the folder holds too many without it being
  /// read to the end (a folder is hostile input). The `errno` of a folder
  /// that cannot be opened, otherwise.
  static func names(in folder: String, limit: Int) -> Result<[String], SystemCallError> {
    guard let stream = opendir(folder) else { return .failure(SystemCallError("open \(folder)")) }
    defer { closedir(stream) }
    var names: [String] = []
    while names.count <= limit, let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != ".", name != ".." { names.append(name) }
    }
    return .success(names)
  }
}
