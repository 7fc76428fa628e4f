#if canImport(Glibc)
  import Glibc
#endif

/// A plugin library opened once, read-only, for every check made before
/// `dlopen`: its header (``ELFHeader``), its layout (``ELFLayout``) and its
/// dynamic section (``ELFDynamicInfo``, for ``PluginNeeds``) are all read
/// from this one descriptor, so they describe the same file and it is
/// opened once instead of once per check.
final class ELFFile {
  /// The canonical path it was opened at, for messages.
  let path: String
  /// Nil when the file could not be opened; each check then reports what
  /// it reports for an unreadable file. A signed plugin's bytes are
  /// sealed from it (``SignedLibraries``), so what its signature is checked
  /// over is the file these checks read.
  let descriptor: Int32?
  private let bytes: FileBytes?
  /// The descriptor's status, when the opener had it.
  private let openerStatus: stat?

  /// Opens the regular file at `path` (a final link refused, a FIFO or
  /// device refused without blocking).
  convenience init(path: String) {
    self.init(path: path, descriptor: try? RegularFile.open(path).get(), status: nil)
  }

  /// Takes over `descriptor` (read-only, for the regular file at the
  /// canonical `path`); `status` is its `fstat`, when already made.
  init(path: String, descriptor: Int32?, status: stat?) {
    self.path = path
    self.descriptor = descriptor
    openerStatus = status
    bytes = descriptor.map { FileBytes(descriptor: $0, status: status) }
  }

  /// The status of the file read (its owner and mode are what vetting
  /// judges); nil when it could not be opened.
  var status: stat? {
    if let openerStatus { return openerStatus }
    var status = stat()
    guard let descriptor, fstat(descriptor, &status) == 0 else { return nil }
    return status
  }

  /// The device and inode of the file read, the one `dlopen` must map;
  /// nil when it could not be opened.
  var identity: FileIdentity? { status.map(FileIdentity.init) }

  deinit {
    if let descriptor { close(descriptor) }
  }

  /// Its header, or what it is instead of an ELF file.
  func header() -> Result<ELFHeader, NotELF> {
    guard let bytes else { return .failure(NotELF(found: "a file that cannot be opened for reading")) }
    return ELFHeader.parse(Array(bytes.read(at: 0, count: 64)))
  }

  /// The problem with its layout, continuing "plugin 'X' (path) …", or nil
  /// when it is whole (or is not ELF, which ``header()`` reports).
  func layoutProblem() -> String? {
    bytes.flatMap { ELFLayout.problem(in: $0, path: path) }
  }

  /// Its dependencies and run path, when its dynamic section can be read;
  /// read once, for every check that asks.
  func dynamicInfo() -> ELFDynamicInfo? { try? dynamicSection().get() }

  /// Its dependencies and run path, or what the reader found wrong; read
  /// once, for every check that asks.
  func dynamicSection() -> Result<ELFDynamicInfo, ELFDynamicInfo.Defect> { section }

  private lazy var section: Result<ELFDynamicInfo, ELFDynamicInfo.Defect> =
    bytes.map { ELFDynamicInfo.read($0) }
    ?? .failure(ELFDynamicInfo.Defect(found: "a file that cannot be opened for reading"))
}
