import PlugboardDigest

#if canImport(Glibc)
  import Glibc
#endif

/// A private, immutable copy of a file's bytes, hashed as it is made: an
/// anonymous memory file (`memfd_create`) sealed against any further write,
/// shrink or growth, so what is later mapped is exactly what was hashed,
/// whatever happens to the original file meanwhile.
struct SealedCopy {
  /// The memory file; the caller closes it (``close()``).
  let descriptor: Int32
  /// The SHA-256 of the bytes copied.
  let digest: SHA256.Digest
  /// Their SHA-512 when asked for (what an SSH signature signs), else
  /// empty.
  var sha512: [UInt8] = []

  /// Larger plugins are refused rather than copied into memory.
  static let maximumSize = 1 << 30

  // Linux's stable ABI values; Glibc's Swift module does not export them.
  private static let allowSealing: UInt32 = 0x0002
  private static let closeOnExec: UInt32 = 0x0001
  private static let addSeals: Int32 = 1033
  private static let allSeals: Int32 = 0x1 | 0x2 | 0x4 | 0x8  // seal, shrink, grow, write

  private typealias MemfdCreate = @convention(c) (UnsafePointer<CChar>, UInt32) -> Int32

  /// Copies everything `source` reads (from its current offset) into a new
  /// sealed memory file, hashing it on the way (with SHA-512 as well when
  /// `sha512`: the bytes are read once for both); `name` is the file's path.
  static func make(from source: Int32, name: String, sha512: Bool = false) -> Result<
    SealedCopy, SystemCallError
  > {
    // Looked up at run time: the C library declares memfd_create only for
    // _GNU_SOURCE, which Swift's Glibc module is not built with.
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "memfd_create") else {
      return .failure(SystemCallError("memfd_create", reason: "not provided by this C library"))
    }
    let create = unsafeBitCast(symbol, to: MemfdCreate.self)
    let copy = create("plugboard-pinned", allowSealing | closeOnExec)
    guard copy >= 0 else { return .failure(SystemCallError("memfd_create")) }
    var hasher = SHA256()
    var long = sha512 ? SHA512() : nil
    var copied = 0
    do throws(FileChunksError<SystemCallError>) {
      try FileChunks.read(source, name: name) { (chunk) throws(SystemCallError) in
        copied += chunk.count
        guard copied <= maximumSize else {
          throw SystemCallError("read \(name)", reason: "larger than \(maximumSize >> 20) MiB")
        }
        hasher.update(chunk)
        long?.update(chunk)
        try writeAll(chunk, to: copy)
      }
    } catch {
      Glibc.close(copy)
      switch error {
      case .read(let failure), .body(let failure): return .failure(failure)
      }
    }
    guard fcntl(copy, addSeals, allSeals) == 0 else {
      let failure = SystemCallError("seal the copy of \(name)")
      Glibc.close(copy)
      return .failure(failure)
    }
    var made = SealedCopy(descriptor: copy, digest: hasher.finalize())
    made.sha512 = long?.finalize() ?? []
    return .success(made)
  }

  /// The path through which the dynamic loader opens the copy.
  var procPath: String { "/proc/self/fd/\(descriptor)" }

  func close() {
    _ = Glibc.close(descriptor)
  }

  private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) throws(SystemCallError)
  {
    var offset = 0
    while offset < bytes.count {
      let written = write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        throw SystemCallError("write the in-memory copy")
      }
      offset += written
    }
  }
}
