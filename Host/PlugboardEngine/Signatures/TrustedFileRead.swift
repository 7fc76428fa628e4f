#if canImport(Glibc)
  import Glibc
#endif

/// The bytes of a file that decides what plugboard trusts (an allowed
/// signers or revoked keys file, the signature proofs file), read only
/// when whoever can change it could change plugboard itself: every link on
/// the way to it (``LinkChase``), every folder above it and the file itself
/// (``FileTrust``) writable by their owner only, owned by root or the user
/// running plugboard. The file is opened once, by its canonical path,
/// without blocking on a FIFO, and judged on that descriptor.
///
/// What went wrong is a ``Failure``; each caller words it, since a missing
/// allowed signers file refuses the deployment while a missing proofs file
/// is only an empty one.
enum TrustedFileRead {
  /// Why the file's bytes were not read.
  enum Failure: Error, Equatable {
    /// Nothing is at the path.
    case missing
    /// `open` failed, for the reason given.
    case unopenable(String)
    /// A FIFO, a device, a folder: anything but a regular file.
    case notRegular
    /// A sentence of ``FileTrust`` or ``LinkChase``: who else can change
    /// it, and the fix.
    case unsafe(String)
    /// Larger than the limit the caller gave.
    case oversized(limit: Int)
  }

  /// At most `limit` bytes of the file at `path` (absolute), or why not.
  /// `thing` names the file in a link's problem ("the allowed signers
  /// file"); `stake` says what whoever could change it could do.
  static func bytes(at path: String, thing: String, stake: String, limit: Int) -> Result<[UInt8], Failure> {
    let user = geteuid()
    if let problem = LinkChase.problem(path, user: user, thing: thing, stake: stake) {
      return .failure(.unsafe(problem))
    }
    let canonical = FilePath.canonical(path)
    // The folders are judged whether the file exists or not: a missing
    // file is made in that folder later (the proofs), or by whoever can
    // write there. A folder that does not exist holds nothing to judge.
    guard
      let folder = canonical.map(FilePath.directory(of:)) ?? FilePath.canonical(FilePath.directory(of: path))
    else { return .failure(.missing) }
    if let problem = FileTrust.foldersProblem(from: folder, user: user, thing: "it", stake: stake) {
      return .failure(.unsafe(problem))
    }
    guard let canonical else { return .failure(.missing) }
    let descriptor = open(canonical, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
    guard descriptor >= 0 else {
      if errno == ENOENT { return .failure(.missing) }
      return .failure(.unopenable(String(cString: strerror(errno))))
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      return .failure(.notRegular)
    }
    if let problem = FileTrust.fileProblem(status, at: canonical, user: user, stake: stake) {
      return .failure(.unsafe(problem))
    }
    let bytes = FileBytes.pread(descriptor, at: 0, count: limit + 1)
    guard bytes.count <= limit else { return .failure(.oversized(limit: limit)) }
    return .success(bytes)
  }
}
