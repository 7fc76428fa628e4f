import PlugboardLoaderModel

#if canImport(Glibc)
  import Glibc
#endif

/// The subfolders the dynamic loader tries before each folder it searches
/// for a library: `glibc-hwcaps/<level>/` (one per instruction set level,
/// glibc 2.33 and later), and, in a C library older than 2.37, the legacy
/// `tls/` and platform folders (`ld.so --help` lists those the running
/// loader uses: on x86-64 `tls`, `x86_64`, and on some processors
/// `haswell`, `xeon_phi` or `avx512_1`, nested). A library in any of them
/// wins over the folder's own, so each that exists is judged as the folder
/// is; one that does not exist is judged through the folder, since whoever
/// can create it can write there.
///
/// The list is the loader model's (`plugboard_search_subfolders.h`), the
/// one the launcher vets the host's folders with: one model of the
/// loader's search, so the two never disagree about a folder.
enum SearchSubfolders {
  /// The subfolders of `folder` that exist and that the loader may search,
  /// in the loader's order, each before those inside it; nil when there
  /// are more than the model lists, a folder no installation makes, which
  /// vetting refuses rather than half vets.
  static func existing(in folder: String) -> [String]? {
    var found = plugboard_search_subfolders()
    plugboard_search_subfolders_of(folder, &found)
    guard found.count >= 0 else { return nil }
    return withUnsafeBytes(of: &found.names) { raw in
      let width = Int(PLUGBOARD_SEARCH_SUBFOLDER_NAME_MAX)
      return (0..<Int(found.count)).map { index in
        let name = raw[(index * width)..<((index + 1) * width)].prefix { $0 != 0 }
        return folder + "/" + String(decoding: name, as: UTF8.self)
      }
    }
  }

  /// The most subfolders one folder may hold that the loader tries first.
  static let maximum = Int(PLUGBOARD_SEARCH_SUBFOLDERS_MAX)

  /// Whether the running C library searches the legacy subfolders (glibc
  /// before 2.37).
  static var searchesLegacy: Bool { plugboard_search_legacy_subfolders() != 0 }

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
