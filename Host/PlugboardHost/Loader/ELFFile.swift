#if canImport(Glibc)
  import Glibc
#endif

/// A plugin library opened once, read-only, for every check made before
/// `dlopen`: its header (``ELFHeader``), its layout (``ELFLayout``) and its
/// dynamic section (``ELFDynamicInfo``, for ``PluginNeeds``) are all read
/// with `pread` from this one descriptor, so they describe the same file
/// and it is opened once instead of once per check.
final class ELFFile {
  /// The canonical path it was opened at, for messages.
  let path: String
  /// Nil when the file could not be opened; each check then reports what
  /// it reports for an unreadable file.
  private let descriptor: Int32?

  /// Opens the regular file at `path` (a final link refused, a FIFO or
  /// device refused without blocking).
  init(path: String) {
    self.path = path
    descriptor = try? RegularFile.open(path).get()
  }

  deinit {
    if let descriptor { close(descriptor) }
  }

  /// Its header, or what it is instead of an ELF file.
  func header() -> Result<ELFHeader, NotELF> {
    guard let descriptor else { return .failure(NotELF(found: "a file that cannot be opened for reading")) }
    return ELFHeader.parse(ELFLayout.read(descriptor, at: 0, count: 64))
  }

  /// The problem with its layout, continuing "plugin 'X' (path) …", or nil
  /// when it is whole (or is not ELF, which ``header()`` reports).
  func layoutProblem() -> String? {
    descriptor.flatMap { ELFLayout.problem(in: $0, path: path) }
  }

  /// Its dependencies and run path, when its dynamic section can be read.
  func dynamicInfo() -> ELFDynamicInfo? {
    descriptor.flatMap { try? ELFDynamicInfo.read($0).get() }
  }
}
