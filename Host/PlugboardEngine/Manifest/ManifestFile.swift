#if canImport(Glibc)
  import Glibc
#endif

/// The manifest's file on disk: found through its links, checked to be a
/// regular file before it is opened, and read with a bound.
///
/// A FIFO would block the read until someone writes to it, and a device
/// such as `/dev/zero` never ends; each is named for what it is instead.
enum ManifestFile {
  /// A manifest larger than this is refused unread: far beyond any real
  /// deployment, and small enough to hold in memory.
  static let maximumSize = 256 << 20

  /// The canonical path and the bytes of the manifest at the absolute
  /// `path`.
  static func read(_ path: String, origin: ManifestOrigin) -> Result<
    (path: String, contents: [UInt8]), ManifestError
  > {
    guard let canonical = realpath(path, nil) else {
      return .failure(unresolved(path, code: errno, origin: origin))
    }
    let real = String(cString: canonical)
    free(canonical)
    var status = stat()
    guard stat(real, &status) == 0 else { return .failure(failure(real, code: errno)) }
    if let kind = irregularKind(status.st_mode) {
      return .failure(.unreadable(path: real, reason: "it is \(kind); expected a regular JSON file"))
    }
    // Non-blocking and not following a link, in case the file was swapped
    // for a FIFO or a link since `stat`.
    let descriptor = open(real, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
    guard descriptor >= 0 else { return .failure(failure(real, code: errno)) }
    defer { close(descriptor) }
    guard fstat(descriptor, &status) == 0 else { return .failure(failure(real, code: errno)) }
    if let kind = irregularKind(status.st_mode) {
      return .failure(.unreadable(path: real, reason: "it is \(kind); expected a regular JSON file"))
    }
    // The manifest chooses which code runs and with which settings: whoever
    // else can write it, or a folder above it, could choose them.
    let user = geteuid()
    if let problem = FileTrust.fileProblem(status, at: real, user: user, stake: stake)
      ?? FileTrust.foldersProblem(
        from: FilePath.directory(of: real), user: user, thing: "the manifest", stake: stake)
      ?? LinkChase.problem(path, user: user, thing: "the manifest", stake: stake)
    {
      return .failure(.untrusted(path: real, reason: problem))
    }
    return contents(of: descriptor, expected: Int(status.st_size)).map { (real, $0) }.mapError { failed in
      failed.code == EFBIG
        ? .unreadable(path: real, reason: "it is larger than \(maximumSize >> 20) MiB; expected a manifest")
        : failure(real, code: failed.code)
    }
  }

  /// What whoever can change the manifest or its folders can do.
  private static let stake = "choose which plugins plugboard loads and with which settings"

  /// An `errno` value.
  private struct ReadFailure: Error {
    let code: Int32
  }

  /// Every byte up to the end of the file, or `EFBIG` beyond
  /// ``maximumSize``, or the `errno` of a failed read.
  private static func contents(of descriptor: Int32, expected: Int) -> Result<[UInt8], ReadFailure> {
    guard expected <= maximumSize else { return .failure(ReadFailure(code: EFBIG)) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(expected)
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        return .failure(ReadFailure(code: errno))
      }
      if count == 0 { return .success(bytes) }
      // The file grew since `fstat`: still bounded.
      guard bytes.count + count <= maximumSize else { return .failure(ReadFailure(code: EFBIG)) }
      bytes.append(contentsOf: chunk[..<count])
    }
  }

  /// What a file of mode `mode` is when it is not a regular file:
  /// "a directory", "a FIFO (named pipe)"…
  private static func irregularKind(_ mode: mode_t) -> String? {
    switch mode & S_IFMT {
    case S_IFREG: nil
    case S_IFDIR: "a directory"
    case S_IFIFO: "a FIFO (named pipe), which could block plugboard until something writes to it"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFSOCK: "a socket"
    default: "not a regular file"
    }
  }

  /// Why the links of `path` led nowhere.
  private static func unresolved(_ path: String, code: Int32, origin: ManifestOrigin) -> ManifestError {
    switch code {
    case ENOENT:
      var link = stat()
      if lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK {
        return .unreadable(path: path, reason: "it is a symbolic link to a file that does not exist")
      }
      return .missing(path: path, origin: origin)
    case ELOOP:
      return .unreadable(path: path, reason: "its symbolic links form a loop (or nest too deeply)")
    case ENOTDIR:
      return .unreadable(path: path, reason: "a component of the path is not a folder")
    default:
      return failure(path, code: code)
    }
  }

  private static func failure(_ path: String, code: Int32) -> ManifestError {
    .unreadable(path: path, reason: String(cString: strerror(code)))
  }
}
