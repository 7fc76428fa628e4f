#if canImport(Glibc)
  import Glibc
#endif

/// Byte ranges of an open file, read with `pread` and kept, so the Swift
/// parsers that look at a library before `dlopen` (its header and its
/// layout) share a few reads instead of making one per field: the first
/// bytes, which hold the headers, are read once, and a read elsewhere
/// fetches a window around what was asked for. Memory stays bounded by the
/// two buffers, whatever the file declares. The dynamic section is read by
/// the loader model's C reader from the same descriptor
/// (``ELFDynamicInfo``).
final class FileBytes {
  /// The descriptor read from; not owned (the caller closes it).
  let descriptor: Int32
  /// The file's size when this was made, or nil when `fstat` failed.
  let size: UInt64?
  private var prefix: Buffer?
  private var window: Buffer?

  /// How much is read from the start at the first read: an ELF header,
  /// its program headers and (in a small library) its dynamic strings.
  static let prefixSize = 8 * 1024
  /// The least a read elsewhere fetches, so that neighbouring names are
  /// served from one read.
  static let windowSize = 4 * 1024

  /// Bytes read from `offset`; `reachesEnd` when the read stopped short,
  /// at the end of the file.
  private struct Buffer {
    let offset: UInt64
    let bytes: [UInt8]
    let reachesEnd: Bool

    init(_ descriptor: Int32, at offset: UInt64, count: Int) {
      self.offset = offset
      bytes = FileBytes.pread(descriptor, at: offset, count: count)
      reachesEnd = bytes.count < count
    }

    /// `[offset, offset + count)`, cut short where the file ends; nil when
    /// this buffer does not hold them.
    func slice(at wanted: UInt64, count: Int) -> ArraySlice<UInt8>? {
      guard wanted >= offset, wanted - offset <= UInt64(bytes.count) else { return nil }
      let begin = Int(wanted - offset)
      if count <= bytes.count - begin { return bytes[begin..<begin + count] }
      return reachesEnd ? bytes[begin...] : nil
    }
  }

  /// `status`, when given, is the descriptor's own (saves an `fstat`).
  init(descriptor: Int32, status: stat? = nil) {
    self.descriptor = descriptor
    if let status {
      size = UInt64(status.st_size)
    } else {
      var status = stat()
      size = fstat(descriptor, &status) == 0 ? UInt64(status.st_size) : nil
    }
  }

  /// Up to `count` bytes at `offset`; fewer at the end of the file or when
  /// reading fails.
  func read(at offset: UInt64, count: Int) -> ArraySlice<UInt8> {
    guard count > 0 else { return [] }
    if prefix == nil, offset < UInt64(Self.prefixSize) {
      prefix = Buffer(descriptor, at: 0, count: Self.prefixSize)
    }
    if let found = prefix?.slice(at: offset, count: count) ?? window?.slice(at: offset, count: count) {
      return found
    }
    let buffer = Buffer(descriptor, at: offset, count: max(count, Self.windowSize))
    window = buffer
    return buffer.slice(at: offset, count: count) ?? []
  }

  /// Up to `count` bytes at `offset`; fewer at the end of the file.
  static func pread(_ fd: Int32, at offset: UInt64, count: Int) -> [UInt8] {
    guard offset <= UInt64(off_t.max) else { return [] }
    // `count` is often a limit far above what the file holds (a megabyte
    // for a settings file of a few lines): the buffer grows as bytes
    // arrive instead of being cleared whole first.
    var bytes = [UInt8](repeating: 0, count: min(count, 1 << 16))
    var done = 0
    while done < count {
      if done == bytes.count { bytes += [UInt8](repeating: 0, count: min(count - done, bytes.count)) }
      let room = bytes.count - done
      let got = bytes.withUnsafeMutableBytes {
        Glibc.pread(fd, $0.baseAddress.map { $0 + done }, room, off_t(offset) + off_t(done))
      }
      if got < 0 && errno == EINTR { continue }
      guard got > 0 else { break }
      done += got
    }
    bytes.removeSubrange(done...)
    return bytes
  }
}
