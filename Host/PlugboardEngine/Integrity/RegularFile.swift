#if canImport(Glibc)
  import Glibc
#endif

/// Opening a file that is to be hashed or loaded.
enum RegularFile {
  /// A read-only descriptor (close-on-exec) for the regular file at `path`.
  /// A final symbolic link is refused rather than followed, so the
  /// descriptor is for the file the canonical path names; a FIFO or device
  /// is refused without blocking or reading it.
  static func open(_ path: String) -> Result<Int32, SystemCallError> {
    let descriptor = Glibc.open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return .failure(SystemCallError("open \(path)")) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      let failure = SystemCallError("fstat \(path)")
      close(descriptor)
      return .failure(failure)
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
      close(descriptor)
      return .failure(SystemCallError("open \(path)", reason: "not a regular file"))
    }
    return .success(descriptor)
  }
}
