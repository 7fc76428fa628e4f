#if canImport(Glibc)
  import Glibc
#endif

/// Reads an open file to its end in fixed-size pieces, so a file of any
/// size is read with bounded memory.
enum FileChunks {
  /// The size of each piece: large enough that system calls cost little
  /// next to hashing, small enough to stay in the cache.
  static let size = 64 * 1024

  /// Calls `body` with each piece of `descriptor`'s content, from its
  /// current offset to its end; `name` is the file's path, for errors.
  static func read<E: Error>(
    _ descriptor: Int32, name: String, _ body: (UnsafeRawBufferPointer) throws(E) -> Void
  ) throws(FileChunksError<E>) {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let count = Glibc.read(descriptor, buffer.baseAddress, size)
      if count < 0 {
        if errno == EINTR { continue }
        throw .read(SystemCallError("read \(name)"))
      }
      if count == 0 { return }
      do {
        try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
      } catch {
        throw .body(error)
      }
    }
  }
}

/// Why ``FileChunks/read(_:name:_:)`` stopped: reading failed, or the
/// caller's body threw.
enum FileChunksError<Body: Error>: Error {
  case read(SystemCallError)
  case body(Body)
}
