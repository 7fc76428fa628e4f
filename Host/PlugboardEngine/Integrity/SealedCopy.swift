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
  /// The digests taken while copying, the ones the caller said it needs.
  private let copiedSHA256: SHA256.Digest?
  private let copiedSHA512: [UInt8]?

  /// Which digests to take while copying: each pass over the bytes costs
  /// about as much as the copy, so a signed plugin without a pin, whose
  /// signature signs a SHA-512, is not hashed with SHA-256 too.
  struct Digests: OptionSet, Sendable {
    let rawValue: Int
    static let sha256 = Digests(rawValue: 1)
    static let sha512 = Digests(rawValue: 2)
  }

  /// The SHA-256 of the bytes copied (a pin's digest): taken while
  /// copying when asked for, else read back from the sealed copy, which
  /// holds the same bytes.
  var digest: SHA256.Digest {
    if let copiedSHA256 { return copiedSHA256 }
    var hasher = SHA256()
    readBack { hasher.update($0) }
    return hasher.finalize()
  }

  /// Their SHA-512 (what an SSH signature signs), taken or read back the
  /// same way.
  var sha512: [UInt8] {
    if let copiedSHA512 { return copiedSHA512 }
    var hasher = SHA512()
    readBack { hasher.update($0) }
    return hasher.finalize()
  }

  /// Every byte of the sealed copy, in pieces, by offset (the descriptor's
  /// own offset is left alone).
  private func readBack(_ body: (UnsafeRawBufferPointer) -> Void) {
    var offset: UInt64 = 0
    while true {
      let piece = FileBytes.pread(descriptor, at: offset, count: 1 << 16)
      guard !piece.isEmpty else { return }
      piece.withUnsafeBytes(body)
      offset += UInt64(piece.count)
    }
  }

  /// Larger plugins are refused rather than copied into memory.
  static let maximumSize = 1 << 30

  // Linux's stable ABI values; Glibc's Swift module does not export them.
  private static let allowSealing: UInt32 = 0x0002
  private static let closeOnExec: UInt32 = 0x0001
  private static let addSeals: Int32 = 1033
  private static let allSeals: Int32 = 0x1 | 0x2 | 0x4 | 0x8  // seal, shrink, grow, write

  private typealias MemfdCreate = @convention(c) (UnsafePointer<CChar>, UInt32) -> Int32

  /// Looked up at run time, once: the C library declares memfd_create only
  /// for _GNU_SOURCE, which Swift's Glibc module is not built with.
  private static let memfdCreate = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "memfd_create").map {
    unsafeBitCast($0, to: MemfdCreate.self)
  }

  /// Copies everything `source` reads (from its current offset) into a new
  /// sealed memory file, taking the `digests` asked for on the way (the
  /// bytes are read once for all); `name` is the file's path.
  static func make(from source: Int32, name: String, digests: Digests = .sha256) -> Result<
    SealedCopy, SystemCallError
  > {
    guard let create = memfdCreate else {
      return .failure(SystemCallError("memfd_create", reason: "not provided by this C library"))
    }
    let copy = create("plugboard-pinned", allowSealing | closeOnExec)
    guard copy >= 0 else { return .failure(SystemCallError("memfd_create")) }
    if digests.isEmpty {
      // Nothing to hash: the kernel copies from file to file, and the
      // bytes never pass through this process.
      switch copyInKernel(from: source, to: copy, name: name) {
      case .success(true): return seal(copy, name: name, sha256: nil, sha512: nil)
      case .success(false): break
      case .failure(let failure):
        Glibc.close(copy)
        return .failure(failure)
      }
    }
    var hasher = digests.contains(.sha256) ? SHA256() : nil
    var long = digests.contains(.sha512) ? SHA512() : nil
    var copied = 0
    do throws(FileChunksError<SystemCallError>) {
      try FileChunks.read(source, name: name) { (chunk) throws(SystemCallError) in
        copied += chunk.count
        guard copied <= maximumSize else {
          throw SystemCallError("read \(name)", reason: "larger than \(maximumSize >> 20) MiB")
        }
        hasher?.update(chunk)
        long?.update(chunk)
        try writeAll(chunk, to: copy)
      }
    } catch {
      Glibc.close(copy)
      switch error {
      case .read(let failure), .body(let failure): return .failure(failure)
      }
    }
    return seal(copy, name: name, sha256: hasher?.finalize(), sha512: long?.finalize())
  }

  /// The memory file `copy`, filled, sealed against any change.
  private static func seal(_ copy: Int32, name: String, sha256: SHA256.Digest?, sha512: [UInt8]?) -> Result<
    SealedCopy, SystemCallError
  > {
    guard fcntl(copy, addSeals, allSeals) == 0 else {
      let failure = SystemCallError("seal the copy of \(name)")
      Glibc.close(copy)
      return .failure(failure)
    }
    return .success(SealedCopy(descriptor: copy, copiedSHA256: sha256, copiedSHA512: sha512))
  }

  /// Copies what `source` reads into `copy` with `sendfile`; false when
  /// the kernel cannot (nothing copied yet: the caller copies by reading).
  private static func copyInKernel(from source: Int32, to copy: Int32, name: String) -> Result<
    Bool, SystemCallError
  > {
    var copied = 0
    while true {
      let sent = sendfile(copy, source, nil, 1 << 20)
      if sent < 0 {
        if errno == EINTR { continue }
        if copied == 0 && (errno == EINVAL || errno == ENOSYS) { return .success(false) }
        return .failure(SystemCallError("copy \(name) into memory"))
      }
      guard sent > 0 else { return .success(true) }
      copied += sent
      guard copied <= maximumSize else {
        return .failure(SystemCallError("read \(name)", reason: "larger than \(maximumSize >> 20) MiB"))
      }
    }
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
