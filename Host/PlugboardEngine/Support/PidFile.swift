#if canImport(Glibc)
  import Glibc
#endif

/// The file `run --pid-file PATH` writes: the supervising process's pid
/// and a newline, for `plugboard reload --pid-file PATH` and scripts.
///
/// Whoever can plant a file at that path chooses the process `plugboard
/// reload` signals, and a FIFO planted there would block whatever opens
/// it. So the file is vetted as the manifest is (``FileTrust``): every
/// folder above it owned by root or the user running plugboard and
/// writable by no one else (root's sticky `/tmp` aside), and no link on the
/// way that another user could re-point. What is at the path must be a
/// regular file of that user, writable by no one else. It is written by
/// an atomic rename of a new file made beside it, so the path is never
/// opened for writing, and read without blocking and without following a
/// final link.
package enum PidFile {
  /// Why the pid file cannot be used: a sentence that names the file, its
  /// owner, its mode and the fix, after "plugboard: COMMAND: ".
  package struct Failure: Error, Equatable {
    package let message: String
  }

  /// What whoever can change the pid file or its folders could do.
  static let stake = "aim 'plugboard reload' at another process"

  /// A pid and its newline; more is not a pid file.
  private static let maximumSize = 32

  /// Writes `pid` to `path`, replacing a pid file of this user left there
  /// before; the reason when it cannot or must not.
  package static func write(_ path: String, pid: pid_t) -> Failure? {
    let shown = Terminal.sanitize(path)
    let place: (folder: String, file: String)
    switch vettedPlace(path) {
    case .success(let vetted): place = vetted
    case .failure(let failure): return failure
    }
    var status = stat()
    if lstat(place.file, &status) == 0, let problem = fileProblem(status, at: place.file) {
      return Failure(message: "refusing the pid file \(shown): it \(problem)")
    }
    // A new file beside it, made by O_EXCL (mkstemp), then renamed over the
    // path: the path itself is never opened, so nothing planted there
    // between the check above and now is opened or written through. In
    // root's sticky /tmp, another user's file there cannot be renamed over.
    var template = Array("\(place.folder == "/" ? "" : place.folder)/.plugboard-pid.XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.map { mkstemp($0) } ?? -1
    }
    guard descriptor >= 0 else {
      return Failure(message: "cannot write the pid file \(shown): \(String(cString: strerror(errno)))")
    }
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let text = Array("\(pid)\n".utf8)
    let written = text.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    let failed = written != text.count || fchmod(descriptor, 0o644) != 0
    let code = errno
    close(descriptor)
    guard !failed, rename(temporary, place.file) == 0 else {
      let reason = failed ? code : errno
      unlink(temporary)
      return Failure(message: "cannot write the pid file \(shown): \(String(cString: strerror(reason)))")
    }
    return nil
  }

  /// Removes `path` if it still holds `pid` (another run may have written
  /// it since), and never blocks: a FIFO there is left alone.
  package static func remove(_ path: String, ifHolding pid: pid_t) {
    guard case .success(let held) = read(path), held == pid else { return }
    unlink(path)
  }

  /// The pid in `path`, or why there is none or it must not be believed.
  package static func read(_ path: String) -> Result<pid_t, Failure> {
    let shown = Terminal.sanitize(path)
    switch vettedPlace(path) {
    case .success: break
    case .failure(let failure): return .failure(failure)
    }
    // Non-blocking: a FIFO would block the open until something writes to
    // it. Not following a final link, which plugboard never writes there.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
    guard descriptor >= 0 else {
      let code = errno
      var status = stat()
      if code == ELOOP, lstat(path, &status) == 0, let problem = fileProblem(status, at: path) {
        return .failure(Failure(message: "refusing the pid file \(shown): it \(problem)"))
      }
      return .failure(
        Failure(message: "cannot read the pid file \(shown): \(String(cString: strerror(code)))"))
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      return .failure(
        Failure(message: "cannot read the pid file \(shown): \(String(cString: strerror(errno)))"))
    }
    if let problem = fileProblem(status, at: path) {
      return .failure(Failure(message: "refusing the pid file \(shown): it \(problem)"))
    }
    let bytes = FileBytes.pread(descriptor, at: 0, count: maximumSize + 1)
    let text = String(decoding: bytes, as: UTF8.self)
    guard bytes.count <= maximumSize, let pid = pid_t(text.split(separator: "\n").first ?? ""), pid > 1 else {
      return .failure(Failure(message: "the pid file \(shown) holds no process id"))
    }
    return .success(pid)
  }

  /// The canonical folder of `path` and the path of the file in it, once
  /// the folders above it and the links on the way are vetted.
  private static func vettedPlace(_ path: String) -> Result<(folder: String, file: String), Failure> {
    let shown = Terminal.sanitize(path)
    let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
    guard !name.isEmpty, name != ".", name != ".." else {
      return .failure(Failure(message: "the pid file \(shown) names a folder, not a file"))
    }
    guard let folder = FilePath.canonical(FilePath.directory(of: path)) else {
      return .failure(
        Failure(
          message:
            "cannot use the pid file \(shown): its folder \(Terminal.sanitize(FilePath.directory(of: path))) "
            + "cannot be reached: \(String(cString: strerror(errno)))"))
    }
    let user = geteuid()
    let absolute = path.hasPrefix("/") ? path : (FilePath.canonical(".") ?? "/") + "/" + path
    if let problem = FileTrust.foldersProblem(from: folder, user: user, thing: "the pid file", stake: stake)
      ?? LinkChase.problem(FilePath.directory(of: absolute), user: user, thing: "the pid file", stake: stake)
    {
      return .failure(Failure(message: "refusing the pid file \(shown): it \(problem)"))
    }
    return .success((folder, (folder == "/" ? "" : folder) + "/" + name))
  }

  /// What is wrong with the file of `status` at `path` as a pid file of the
  /// user running plugboard, continuing "it ", with the fix; nil when
  /// nothing is.
  private static func fileProblem(_ status: stat, at path: String) -> String? {
    let shown = Terminal.sanitize(path)
    let user = geteuid()
    let described = FileTrust.describe(status)
    if let kind = irregularKind(status.st_mode) {
      return "is \(kind) (\(described)), not a pid file plugboard wrote; whoever made it could block "
        + "plugboard or \(stake) — remove it (rm \(shown)) and let 'plugboard run' write it, in a folder only "
        + "you can write"
    }
    if status.st_uid != user {
      return "is owned by uid \(status.st_uid), not the user running plugboard (uid \(user)) (\(described)); "
        + "its owner can \(stake) — remove it (rm \(shown)) and let 'plugboard run' write it, in a folder only "
        + "you can write"
    }
    guard status.st_mode & (S_IWGRP | S_IWOTH) != 0 else { return nil }
    return
      "is writable by \(FileTrust.writers(status, at: path)) (\(described)); anyone who can write it can "
      + "\(stake) — remove the write permission: chmod go-w \(shown)"
  }

  /// What a file of mode `mode` is when it is not a regular file.
  private static func irregularKind(_ mode: mode_t) -> String? {
    switch mode & S_IFMT {
    case S_IFREG: nil
    case S_IFIFO: "a FIFO (named pipe)"
    case S_IFLNK: "a symbolic link"
    case S_IFDIR: "a directory"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFSOCK: "a socket"
    default: "not a regular file"
    }
  }
}
