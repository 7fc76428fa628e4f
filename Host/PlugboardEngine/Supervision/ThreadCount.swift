#if canImport(Glibc)
  import Glibc
#endif

/// How many threads this process runs, as Linux lists them in
/// `/proc/self/task`: supervision forks, and a fork copies only the
/// calling thread, with every lock another thread held at that moment
/// still held in the child, forever.
enum ThreadCount {
  /// The number of threads; nil when `/proc` cannot be read (not mounted,
  /// or hidden by a sandbox), and nothing can be told.
  static func current() -> Int? {
    guard let folder = opendir("/proc/self/task") else { return nil }
    defer { closedir(folder) }
    var count = 0
    while let entry = readdir(folder) {
      // Every entry but "." and ".." is a thread's id.
      let isThread = withUnsafeBytes(of: entry.pointee.d_name) { name in
        name.first.map { $0 != UInt8(ascii: ".") } ?? false
      }
      if isThread { count += 1 }
    }
    return count
  }
}
