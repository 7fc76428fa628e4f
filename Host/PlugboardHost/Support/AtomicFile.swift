#if canImport(Glibc)
  import Glibc
#endif

/// Replaces a file's content all at once: the new bytes go to a temporary
/// file in the same folder, which then takes the file's place with
/// `rename(2)`, so a reader sees the old file or the new one, never half
/// of one, and a failure leaves the old file as it was.
enum AtomicFile {
  /// Replaces the file at `path` (absolute) with `bytes`, keeping its
  /// permission bits.
  static func replace(_ path: String, with bytes: [UInt8]) -> Result<Void, SystemCallError> {
    var status = stat()
    guard stat(path, &status) == 0 else { return .failure(SystemCallError("stat \(path)")) }
    let folder = FilePath.directory(of: path)
    let name = String(path[path.index(after: path.lastIndex(of: "/") ?? path.startIndex)...])
    var template = Array("\(folder)/.\(name).XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.map { mkstemp($0) } ?? -1
    }
    guard descriptor >= 0 else { return .failure(SystemCallError("create a temporary file in \(folder)")) }
    let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    func fail(_ operation: String) -> Result<Void, SystemCallError> {
      let failure = SystemCallError(operation)
      close(descriptor)
      unlink(temporary)
      return .failure(failure)
    }
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes {
        write(descriptor, $0.baseAddress.map { $0 + offset }, bytes.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        return fail("write \(temporary)")
      }
      offset += written
    }
    guard fchmod(descriptor, status.st_mode & 0o7777) == 0 else { return fail("chmod \(temporary)") }
    guard fsync(descriptor) == 0 else { return fail("fsync \(temporary)") }
    close(descriptor)
    guard rename(temporary, path) == 0 else {
      let failure = SystemCallError("rename \(temporary) to \(path)")
      unlink(temporary)
      return .failure(failure)
    }
    return .success(())
  }
}
