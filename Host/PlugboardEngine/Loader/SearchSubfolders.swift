#if canImport(Glibc)
  import Glibc
#endif

/// The subfolders the dynamic loader tries before each folder it searches
/// for a library: `glibc-hwcaps/<level>/` (one per instruction set level,
/// glibc 2.33 and later), and, in a C library older than 2.37, the legacy
/// `tls/` and platform folders (`LD_DEBUG=libs` lists them: on x86-64
/// `tls/x86_64/x86_64`, `tls/x86_64`, `tls`, `x86_64/x86_64`, `x86_64`).
/// A library in any of them wins over the folder's own, so each that
/// exists is judged as the folder is; one that does not exist is judged
/// through the folder, since whoever can create it can write there.
enum SearchSubfolders {
  /// The subfolders of `folder` that exist and that the loader may search,
  /// nearest to the loader's order: the `glibc-hwcaps` folder and each
  /// level in it (at most `limit`), then the legacy ones.
  static func existing(in folder: String, limit: Int = 64) -> [String] {
    var found: [String] = []
    let hwcaps = folder + "/glibc-hwcaps"
    if FileKind.following(hwcaps) == .directory {
      found.append(hwcaps)
      if case .success(let names) = FilePath.names(in: hwcaps, limit: limit) {
        found += names.sorted(by: >).map { hwcaps + "/" + $0 }.filter { FileKind.following($0) == .directory }
      }
    }
    // Every folder on the way to a deeper one is in the list as well.
    found += legacy.map { folder + "/" + $0 }.filter { FileKind.following($0) == .directory }
    return found
  }

  /// The legacy subfolders, relative, in the loader's order; none from
  /// glibc 2.37 on, which stopped searching them.
  static let legacy: [String] = {
    guard let version = cLibraryVersion, version < (2, 37) else { return [] }
    // The loader's platform name is the machine's (AT_PLATFORM: x86_64,
    // aarch64), as `uname` reports it.
    var system = utsname()
    guard uname(&system) == 0 else { return ["tls"] }
    let name = withUnsafeBytes(of: system.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    guard !name.isEmpty, !name.utf8.contains(UInt8(ascii: "/")) else { return ["tls"] }
    return ["tls/\(name)/\(name)", "tls/\(name)", "tls", "\(name)/\(name)", name]
  }()

  /// The C library's version (`2.36`), as it reports it; nil when it
  /// cannot be read, and then taken as current (no legacy subfolders).
  static let cLibraryVersion: (Int, Int)? = {
    var buffer = [CChar](repeating: 0, count: 64)
    let length = confstr(Int32(_CS_GNU_LIBC_VERSION), &buffer, buffer.count)
    guard length > 0, length <= buffer.count else { return nil }
    // "glibc 2.36"
    let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let parts = text.split(separator: " ").last?.split(separator: ".").prefix(2).compactMap { Int($0) } ?? []
    return parts.count == 2 ? (parts[0], parts[1]) : nil
  }()

  /// "glibc 2.36", for messages.
  static var cLibraryName: String {
    cLibraryVersion.map { "glibc \($0.0).\($0.1)" } ?? "glibc"
  }
}
