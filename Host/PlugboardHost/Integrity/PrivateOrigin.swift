#if canImport(Glibc)
  import Glibc
#endif

/// A fresh folder, mode 0700, that stands in for a pinned plugin's own
/// folder while the dynamic loader opens it: it holds a link with the
/// plugin's file name to the sealed copy, so the loader's `$ORIGIN` is this
/// folder, and a link to each neighbour the plugin needs from its real
/// folder, so `$ORIGIN` lookups still find them. It holds no library bytes
/// of its own and is removed as soon as `dlopen` returns.
struct PrivateOrigin {
  /// Folder names start with this, so a leftover (the process died inside
  /// `dlopen`) is recognisable: it holds only dangling links.
  static let prefix = "plugboard-pin-"

  let folder: String
  let libraryPath: String
  private let links: [String]

  /// Makes the folder with `library` (a file name) linking to `target`, and
  /// each of `neighbours` (file name → absolute path) linking to its path.
  static func make(library: String, target: String, neighbours: [(name: String, path: String)])
    -> Result<PrivateOrigin, SystemCallError>
  {
    var template = Array("\(temporaryBase)/\(prefix)XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.flatMap { mkdtemp($0) }.map { String(cString: $0) }
    }
    guard let folder = made else { return .failure(SystemCallError("mkdtemp in \(temporaryBase)")) }
    var links: [String] = []
    for (name, destination) in [(library, target)] + neighbours {
      let link = folder + "/" + name
      guard symlink(destination, link) == 0 else {
        let failure = SystemCallError("symlink \(link)")
        PrivateOrigin(folder: folder, libraryPath: "", links: links).remove()
        return .failure(failure)
      }
      links.append(link)
    }
    return .success(PrivateOrigin(folder: folder, libraryPath: folder + "/" + library, links: links))
  }

  /// Removes the links and the folder; what the loader mapped stays mapped.
  func remove() {
    for link in links { unlink(link) }
    rmdir(folder)
  }

  /// `$TMPDIR` when it is an absolute path, else `/tmp`.
  private static var temporaryBase: String {
    guard let value = getenv("TMPDIR").map({ String(cString: $0) }), value.hasPrefix("/") else {
      return "/tmp"
    }
    return value.count > 1 && value.hasSuffix("/") ? String(value.dropLast()) : value
  }
}
