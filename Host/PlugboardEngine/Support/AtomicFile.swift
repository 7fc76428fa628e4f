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
    if let original, let refusal = lock(current, path: path, holding: original) { return .failure(refusal) }
    let folder = FilePath.directory(of: path)
    let descriptor: Int32
    let temporary: String
    switch createTemporary(for: path, in: folder) {
    case .success(let created): (descriptor, temporary) = created
    case .failure(let failure): return .failure(failure)
    }
    if let failure = fill(descriptor, named: temporary, with: bytes, like: current, status: status) {
      close(descriptor)
      unlink(temporary)
      return .failure(.system(failure))
    }
    close(descriptor)
    guard rename(temporary, path) == 0 else {
      let failure = SystemCallError("rename \(temporary) to \(path)")
      unlink(temporary)
      return .failure(.system(failure))
    }
    return syncFolder(folder)
  }

  /// Locks the open file `current` against other `plugboard pin` runs
  /// (held until the descriptor is closed, after the rename), and says
  /// why not to replace it: it cannot be locked, or no longer holds
  /// `original`.
  private static func lock(_ current: Int32, path: String, holding original: [UInt8]) -> Failure? {
    guard flock(current, LOCK_EX) == 0 else { return .system(SystemCallError("lock \(path)")) }
    guard FileBytes.pread(current, at: 0, count: original.count + 1) == original else { return .changed }
    return nil
  }

  /// A new empty file beside `path`, in `folder`, under a name nobody can
  /// predict: its open descriptor and its path.
  private static func createTemporary(for path: String, in folder: String) -> Result<(Int32, String), Failure>
  {
    let name = String(path[path.index(after: path.lastIndex(of: "/") ?? path.startIndex)...])
    var template = Array("\(folder)/.\(name).XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.map { mkstemp($0) } ?? -1
    }
    guard descriptor >= 0 else {
      return .failure(.system(SystemCallError("create a temporary file in \(folder)")))
    }
    return .success(
      (descriptor, String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)))
  }

  /// Writes `bytes` to the temporary file, gives it the owner, mode and
  /// access control list of `current` (whose `status` the caller read),
  /// and waits until it is on the disk; the failing call when one fails.
  private static func fill(
    _ descriptor: Int32, named temporary: String, with bytes: [UInt8], like current: Int32, status: stat
  ) -> SystemCallError? {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes {
        write(descriptor, $0.baseAddress.map { $0 + offset }, bytes.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        return SystemCallError("write \(temporary)")
      }
      offset += written
    }
    // The owner first: chown clears the set-user-ID bits chmod then sets.
    if status.st_uid != geteuid() || status.st_gid != getegid() {
      guard fchown(descriptor, status.st_uid, status.st_gid) == 0 else {
        return SystemCallError("chown \(temporary)")
      }
    }
    guard fchmod(descriptor, status.st_mode & 0o7777) == 0 else {
      return SystemCallError("chmod \(temporary)")
    }
    // After the mode, which an ACL then completes: the users and groups it
    // names keep the access they had, no more (its mask is the mode's group bits).
    if let acl = AccessControlList.of(descriptor: current), !acl.write(to: descriptor) {
      return SystemCallError("set the access control list of \(temporary)")
    }
    guard fsync(descriptor) == 0 else { return SystemCallError("fsync \(temporary)") }
    return nil
  }

  /// `fsync`s `folder`, so that the rename it holds reaches the disk.
  private static func syncFolder(_ folder: String) -> Result<Void, Failure> {
    let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    defer { if directory >= 0 { close(directory) } }
    guard directory >= 0, fsync(directory) == 0 else {
      return .failure(.system(SystemCallError("fsync \(folder)")))
    }
    return .success(())
  }
}
