#if canImport(Glibc)
  import Glibc
#endif

/// The files this process has mapped, as `/proc/self/maps` lists them: the
/// executable and every shared library the loader opened, each with the
/// identity of the file that was mapped (its device and inode), which the
/// path may no longer name.
///
/// A reload forks the parent, so the new child runs the code the parent
/// mapped at its start, whatever is on disk by then (``HostImage``).
struct MappedFiles {
  struct File: Hashable, Sendable {
    let path: String
    let device: UInt64
    let inode: UInt64
    /// The kernel marks a mapping whose file was removed (or replaced by a
    /// rename) ` (deleted)`: `path` is without the mark.
    let deleted: Bool

    /// Whether `path` still names the mapped file.
    var isOnDisk: Bool {
      guard !deleted else { return false }
      var status = stat()
      return stat(path, &status) == 0 && UInt64(status.st_ino) == inode && UInt64(status.st_dev) == device
    }
  }

  /// `/proc/self/maps` is the kernel's: this only bounds a broken one.
  static let maximumBytes = 16 << 20

  /// Each file mapped, once, in the order of the first mapping; empty
  /// when the list cannot be read.
  static func current() -> [File] {
    parse(bytes: read())
  }

  /// The files of `text`, lines of `/proc/<pid>/maps`.
  static func parse(_ text: String) -> [File] {
    parse(bytes: Array(text.utf8))
  }

  /// The same, from the list's bytes: read as bytes, not characters (a
  /// library maps four or five lines of it, and a process with Foundation
  /// has hundreds).
  static func parse(bytes: [UInt8]) -> [File] {
    var seen: Set<File> = []
    var files: [File] = []
    var start = 0
    while start < bytes.count {
      let end = bytes[start...].firstIndex(of: newline) ?? bytes.count
      if let file = file(bytes[start..<end]), seen.insert(file).inserted { files.append(file) }
      start = end + 1
    }
    return files
  }

  private static let newline = UInt8(ascii: "\n")
  private static let space = UInt8(ascii: " ")
  private static let deletedMark = Array(" (deleted)".utf8)

  /// `address perms offset major:minor inode path`: the file of one line,
  /// nil for an anonymous or special mapping (`[heap]`, `[vdso]`).
  private static func file(_ line: ArraySlice<UInt8>) -> File? {
    var fields: [ArraySlice<UInt8>] = []
    var index = line.startIndex
    while fields.count < 5 {
      while index < line.endIndex, line[index] == space { index += 1 }
      let begin = index
      while index < line.endIndex, line[index] != space { index += 1 }
      guard index > begin else { return nil }
      fields.append(line[begin..<index])
    }
    while index < line.endIndex, line[index] == space { index += 1 }
    var path = line[index...]
    guard path.first == UInt8(ascii: "/"), let inode = number(fields[4], radix: 10), inode != 0,
      let colon = fields[3].firstIndex(of: UInt8(ascii: ":")),
      let major = number(fields[3][..<colon], radix: 16), major <= UInt32.max,
      let minor = number(fields[3][(colon + 1)...], radix: 16), minor <= UInt32.max
    else { return nil }
    let deleted = path.count >= deletedMark.count && path.suffix(deletedMark.count).elementsEqual(deletedMark)
    if deleted { path = path.dropLast(deletedMark.count) }
    return File(
      path: String(decoding: path, as: UTF8.self), device: device(major: major, minor: minor), inode: inode,
      deleted: deleted)
  }

  /// The number `digits` spell in `radix` (10 or 16); nil when one is not
  /// a digit, there are none, or it overflows.
  private static func number(_ digits: ArraySlice<UInt8>, radix: UInt64) -> UInt64? {
    guard !digits.isEmpty else { return nil }
    var value: UInt64 = 0
    for byte in digits {
      let digit: UInt64
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16:
        digit = UInt64(byte - UInt8(ascii: "a")) + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16:
        digit = UInt64(byte - UInt8(ascii: "A")) + 10
      default: return nil
      }
      let (shifted, overflow) = value.multipliedReportingOverflow(by: radix)
      let (sum, carry) = shifted.addingReportingOverflow(digit)
      guard !overflow, !carry else { return nil }
      value = sum
    }
    return value
  }

  /// glibc's `makedev`, which Swift's Glibc module does not import: the
  /// number `stat` gives for the device `major:minor`.
  static func device(major: UInt64, minor: UInt64) -> UInt64 {
    (major & 0xfff) << 8 | (major & 0xffff_f000) << 32 | (minor & 0xff) | (minor & 0xffff_ff00) << 12
  }

  private static func read() -> [UInt8] {
    let descriptor = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return [] }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while bytes.count < maximumBytes {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      bytes += chunk[..<count]
    }
    return bytes
  }
}
