#if canImport(Glibc)
  import Glibc
#endif

/// Replaces a file's content all at once: the new bytes go to a temporary
/// file in the same folder (`mkstemp`: a name nobody can predict), which
/// then takes the file's place with `rename(2)`, so a reader sees the old
/// file or the new one, never half of one, and a failure leaves the old
/// file as it was.
///
/// The new file keeps the old one's owner, group and permission bits, and
/// reaches the disk before `replace` returns: the file and then its folder
/// (which holds the rename) are `fsync`ed. An edit made by someone else
/// since the caller read the file is not lost: with `original`, the file
/// is locked (`flock`, which other `plugboard pin` runs take too) and
/// compared with what the caller read before it is replaced.
package enum AtomicFile {
  /// Why a replacement was not made.
  package enum Failure: Error, CustomStringConvertible {
    case system(SystemCallError)
    /// The file no longer holds what the caller read.
    case changed

    package var description: String {
      switch self {
      case .system(let error): "\(error)"
      case .changed: "it was changed by someone else since plugboard read it"
      }
    }
  }

  /// Replaces the file at `path` (absolute) with `bytes`; with `original`,
  /// only while it still holds those bytes.
  package static func replace(
    _ path: String, with bytes: [UInt8], original: [UInt8]? = nil
  ) -> Result<Void, Failure> {
    let current = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
    guard current >= 0 else { return .failure(.system(SystemCallError("open \(path)"))) }
    defer { close(current) }
    var status = stat()
    guard fstat(current, &status) == 0 else { return .failure(.system(SystemCallError("stat \(path)"))) }
    if let original {
      // Held until the descriptor is closed, after the rename.
      guard flock(current, LOCK_EX) == 0 else { return .failure(.system(SystemCallError("lock \(path)"))) }
      guard FileBytes.pread(current, at: 0, count: original.count + 1) == original else {
        return .failure(.changed)
      }
    }
    let folder = FilePath.directory(of: path)
    let name = String(path[path.index(after: path.lastIndex(of: "/") ?? path.startIndex)...])
    var template = Array("\(folder)/.\(name).XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.map { mkstemp($0) } ?? -1
    }
    guard descriptor >= 0 else {
      return .failure(.system(SystemCallError("create a temporary file in \(folder)")))
    }
    let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    func fail(_ operation: String) -> Result<Void, Failure> {
      let failure = SystemCallError(operation)
      close(descriptor)
      unlink(temporary)
      return .failure(.system(failure))
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
    // The owner first: chown clears the set-user-ID bits chmod then sets.
    if status.st_uid != geteuid() || status.st_gid != getegid() {
      guard fchown(descriptor, status.st_uid, status.st_gid) == 0 else { return fail("chown \(temporary)") }
    }
    guard fchmod(descriptor, status.st_mode & 0o7777) == 0 else { return fail("chmod \(temporary)") }
    // After the mode, which an ACL then completes: the users and groups it
    // names keep the access they had, no more (its mask is the mode's group bits).
    if let acl = AccessControlList.of(descriptor: current), !acl.write(to: descriptor) {
      return fail("set the access control list of \(temporary)")
    }
    guard fsync(descriptor) == 0 else { return fail("fsync \(temporary)") }
    close(descriptor)
    guard rename(temporary, path) == 0 else {
      let failure = SystemCallError("rename \(temporary) to \(path)")
      unlink(temporary)
      return .failure(.system(failure))
    }
    let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    defer { if directory >= 0 { close(directory) } }
    guard directory >= 0, fsync(directory) == 0 else {
      return .failure(.system(SystemCallError("fsync \(folder)")))
    }
    return .success(())
  }
}
