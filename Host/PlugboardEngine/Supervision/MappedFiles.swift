#if canImport(Glibc)
  import Glibc
#endif

/// The files this process has mapped, as `/proc/self/maps` lists them: the
/// executable and every shared library the loader opened, each with the
/// identity of the file that was mapped (its device and inode), which the
/// path may no longer name.
///
/// A reload forks the parent, so the new child runs the code the parent
/// mapped at its start, whatever is on disk by then (``HostImage``); and the
/// libraries plugins brought in tell a reload which neighbour libraries
/// changed (``DeploymentInventory``).
struct MappedFiles {
  struct File: Hashable, Sendable {
    let path: String
    let device: UInt64
    let inode: UInt64
    /// The kernel marks a mapping whose file was removed (or replaced by a
    /// rename) ` (deleted)`: `path` is without the mark.
    let deleted: Bool

    /// Whether `path` still names the mapped file.
    var isOnDisk: Bool { statusOnDisk() != nil }

    /// The mapped file's identity for a reload's report: its device and
    /// inode, and while the path still names it, its size and
    /// modification time (a library rewritten in place keeps its inode).
    var identity: String {
      guard let status = statusOnDisk() else { return "\(device):\(inode):gone" }
      return "\(device):\(inode):\(status.st_size):\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
    }

    /// The status of the file `path` names, when it is the mapped one.
    private func statusOnDisk() -> stat? {
      guard !deleted else { return nil }
      var status = stat()
      guard stat(path, &status) == 0, UInt64(status.st_ino) == inode, UInt64(status.st_dev) == device else {
        return nil
      }
      return status
    }
  }

  /// `/proc/self/maps` is the kernel's: this only bounds a broken one.
  static let maximumBytes = 16 << 20

  /// Each file mapped, once, in the order of the first mapping; empty
  /// when the list cannot be read.
  static func current() -> [File] {
    parse(read())
  }

  /// The files of `text`, lines of `/proc/<pid>/maps`.
  static func parse(_ text: String) -> [File] {
    var seen: Set<File> = []
    var files: [File] = []
    for line in text.split(separator: "\n") {
      guard let file = file(line), seen.insert(file).inserted else { continue }
      files.append(file)
    }
    return files
  }

  /// `address perms offset major:minor inode path`: the file of one line,
  /// nil for an anonymous or special mapping (`[heap]`, `[vdso]`).
  private static func file(_ line: Substring) -> File? {
    let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
    guard fields.count == 6, let inode = UInt64(fields[4]), inode != 0 else { return nil }
    let numbers = fields[3].split(separator: ":")
    guard numbers.count == 2, let major = UInt32(numbers[0], radix: 16),
      let minor = UInt32(numbers[1], radix: 16)
    else { return nil }
    var path = String(fields[5].drop { $0 == " " })
    guard path.hasPrefix("/") else { return nil }
    let mark = " (deleted)"
    let deleted = path.hasSuffix(mark)
    if deleted { path.removeLast(mark.count) }
    return File(
      path: path, device: device(major: UInt64(major), minor: UInt64(minor)), inode: inode, deleted: deleted)
  }

  /// glibc's `makedev`, which Swift's Glibc module does not import: the
  /// number `stat` gives for the device `major:minor`.
  static func device(major: UInt64, minor: UInt64) -> UInt64 {
    (major & 0xfff) << 8 | (major & 0xffff_f000) << 32 | (minor & 0xff) | (minor & 0xffff_ff00) << 12
  }

  private static func read() -> String {
    let descriptor = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return "" }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while bytes.count < maximumBytes {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      bytes += chunk[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
