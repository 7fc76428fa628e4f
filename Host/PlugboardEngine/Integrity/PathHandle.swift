#if canImport(Glibc)
  import Glibc
#endif

/// The file a path leads to, held by an `O_PATH` descriptor: nothing of it
/// is opened for reading (a device or FIFO is not opened at all), yet its
/// status and its canonical path come from the descriptor, one system
/// call each, instead of `realpath`'s walk of every component (a
/// `readlink` per folder) and a `stat` of the result.
///
/// Every later step uses the same file: ``openForReading()`` reopens the
/// very inode through `/proc/self/fd`, so a rename or a swapped folder
/// after the path was followed changes nothing.
final class PathHandle {
  let descriptor: Int32
  /// Absolute, every link and `..` resolved by the kernel.
  let canonical: String
  let status: stat

  private init(descriptor: Int32, canonical: String, status: stat) {
    self.descriptor = descriptor
    self.canonical = canonical
    self.status = status
  }

  deinit { close(descriptor) }

  /// `O_PATH`, which Glibc declares only for `_GNU_SOURCE` (Swift's Glibc
  /// module is built without it); its value on x86-64, AArch64 and RISC-V.
  private static let pathOnly: Int32 = 0o10_000_000

  /// The file `path` leads to, following links; nil when it cannot be
  /// followed (missing, a loop, a folder that cannot be searched) or when
  /// `/proc` cannot name it: the caller then walks the path the slow way,
  /// which also says why.
  static func open(_ path: String) -> PathHandle? {
    let descriptor = Glibc.open(path, pathOnly | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    var status = stat()
    guard fstat(descriptor, &status) == 0, let canonical = procPath(descriptor) else {
      close(descriptor)
      return nil
    }
    return PathHandle(descriptor: descriptor, canonical: canonical, status: status)
  }

  /// What is there, as far as loading a library from it goes.
  var kind: FileKind { FileKind.kind(of: status) }

  /// A read-only descriptor (close-on-exec, non-blocking) for this very
  /// file, which must be a regular one; nil when it cannot be read.
  func openForReading() -> Int32? {
    guard kind == .regular else { return nil }
    let reopened = Glibc.open("/proc/self/fd/\(descriptor)", O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
    return reopened >= 0 ? reopened : nil
  }

  /// The path the kernel holds for `descriptor`; nil when it is not an
  /// absolute path any more (the file was deleted, or lies outside this
  /// process's root) or is too long.
  private static func procPath(_ descriptor: Int32) -> String? {
    let capacity = Int(PATH_MAX) + 1
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer in
      guard let base = buffer.baseAddress else { return nil }
      let length = readlink("/proc/self/fd/\(descriptor)", base, capacity)
      guard length > 0, length < capacity else { return nil }
      let path = String(
        decoding: UnsafeRawBufferPointer(start: base, count: length).bindMemory(to: UInt8.self), as: UTF8.self
      )
      guard path.hasPrefix("/"), !path.hasSuffix(" (deleted)") else { return nil }
      return path
    }
  }
}
