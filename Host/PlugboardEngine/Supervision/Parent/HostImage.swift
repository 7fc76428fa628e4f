#if canImport(Glibc)
  import Glibc
#endif

/// plugboard's own code as the supervising parent mapped it at its start:
/// its executable, PlugboardKit and the Swift runtime, and every file it
/// mapped from their folders.
///
/// A reload forks the parent, so the new child runs that code whatever is
/// on disk now: after the host was reinstalled, a reload would bring the
/// deployment up on the old, deleted PlugboardKit and say nothing changed,
/// and the new host's plugins would be judged by the old one. A reload
/// first asks ``replaced()``; a file replaced means a restart is needed
/// (Docs/operating.md, "Reloading"), and the reload fails saying so.
enum HostImage {
  /// The file names whose folders hold plugboard's own code.
  static let anchors = ["libPlugboardKit.so", "libswiftCore.so"]

  /// The first of plugboard's own mapped files that its path no longer
  /// names (replaced, removed), among `files` (this process's by
  /// default); nil when all are as they were mapped.
  static func replaced(
    among files: [MappedFiles.File] = MappedFiles.current(), executable: String = executablePath()
  ) -> MappedFiles.File? {
    var folders: Set<Substring> = [folder(of: executable)]
    for file in files where anchors.contains(String(file.path.split(separator: "/").last ?? "")) {
      folders.insert(folder(of: file.path))
    }
    return files.first { folders.contains(folder(of: $0.path)) && !$0.isOnDisk }
  }

  /// Where this process's executable was started from, without the
  /// kernel's ` (deleted)` mark.
  static func executablePath() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return "" }
    let path = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return path.hasSuffix(" (deleted)") ? String(path.dropLast(" (deleted)".count)) : path
  }

  private static func folder(of path: String) -> Substring {
    path[..<(path.lastIndex(of: "/") ?? path.startIndex)]
  }
}
