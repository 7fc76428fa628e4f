import PlugboardDigest

#if canImport(Glibc)
  import Glibc
#endif

/// Signatures verified at an earlier start, kept across starts so that a
/// library that has not changed is not hashed and checked again: the file
/// `verified-signatures` in the folder systemd names `CACHE_DIRECTORY`
/// (a unit's `CacheDirectory=`), none without it.
///
/// A proof says "these signature bytes verified over this file" and
/// nothing more: the envelope, the namespace, revocation and the allowed
/// signers file are judged again at every start, so a key revoked or a
/// line removed since takes effect at once. The file is named by its
/// status (device, inode, size, and the modification and change times to
/// the nanosecond): the kernel sets the change time at every write and
/// only root can set it back. A proof is kept only for a file whose change
/// time lies before the clock tick the verification began in, and that did
/// not change while it was read: a file written later in that same tick
/// could otherwise share every field of its status.
///
/// Whoever can write the proofs file can make plugboard skip a signature
/// check, so it is vetted as the allowed signers file is (``TrustFiles``);
/// a file or folder that fails is not used, with a warning, and every
/// signature is verified in full.
final class SignatureProofs {
  /// A file's status, as far as it names its contents.
  struct Stamp: Hashable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modified: Int64
    let changed: Int64

    init(_ status: stat) {
      device = UInt64(status.st_dev)
      inode = UInt64(status.st_ino)
      size = Int64(status.st_size)
      modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
      changed = Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec)
    }

    init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64) {
      self.device = device
      self.inode = inode
      self.size = size
      self.modified = modified
      self.changed = changed
    }

    /// The status of the file `descriptor` reads, nil when it cannot be
    /// taken.
    static func of(_ descriptor: Int32) -> Stamp? {
      var status = stat()
      guard fstat(descriptor, &status) == 0 else { return nil }
      return Stamp(status)
    }
  }

  /// One signature verified over one file.
  struct Proof: Hashable {
    let file: Stamp
    /// The SHA-256 of the signature file's bytes, as 64 lower-case
    /// hexadecimal digits: how the proofs file writes it.
    let signature: String

    init(file: Stamp, signature armored: [UInt8]) {
      self.file = file
      signature = SHA256.hash(armored).hex
    }

    fileprivate init(file: Stamp, digest: String) {
      self.file = file
      signature = digest
    }

    /// Its line in the proofs file.
    fileprivate var line: String {
      "\(file.device) \(file.inode) \(file.size) \(file.modified) \(file.changed) \(signature)"
    }
  }

  /// The proofs file, absolute; nil when proofs are not kept.
  let path: String?
  private var known: Set<Proof> = []
  /// In the file's order, oldest first; what is saved.
  private var ordered: [Proof] = []
  private var changed = false

  /// The most proofs kept: the oldest go first.
  static let capacity = 4096
  /// The first line of the file, naming its format.
  static let header = "plugboard verified signatures 1"
  static let fileName = "verified-signatures"
  /// What whoever can change the file could do.
  static let stake = "make plugboard load a library without checking its signature"

  private init(path: String?) {
    self.path = path
  }

  /// Proofs kept in `path` (absolute), read now; with the warning to show
  /// when the file cannot be used (then nothing is read, and nothing is
  /// saved).
  static func kept(in path: String) -> (SignatureProofs, warning: String?) {
    let limit = (capacity + 1) * 160
    let detail: String
    switch TrustedFileRead.bytes(at: path, thing: "the signature proofs file", stake: stake, limit: limit) {
    case .success(let bytes):
      let proofs = SignatureProofs(path: path)
      proofs.read(bytes)
      return (proofs, nil)
    case .failure(.missing): return (SignatureProofs(path: path), nil)
    case .failure(.unopenable(let reason)): detail = "cannot be opened: \(reason)"
    case .failure(.notRegular): detail = "is not a regular file — remove it"
    case .failure(.unsafe(let problem)): detail = problem
    case .failure(.oversized(let limit)): detail = "is larger than \(limit) bytes — remove it"
    }
    return (
      SignatureProofs(path: nil),
      "the signature proofs file \(Terminal.sanitize(path)) \(detail); every signature is verified in full"
    )
  }

  /// Proofs in the folder `CACHE_DIRECTORY` names (its first, when it
  /// names several), none without it.
  static func kept(cacheDirectory folders: String?) -> (SignatureProofs, warning: String?) {
    guard let folders,
      let folder = folders.split(separator: ":").first.map(String.init), folder.hasPrefix("/")
    else { return (SignatureProofs(path: nil), nil) }
    return kept(in: folder + "/" + fileName)
  }

  /// A store that keeps nothing.
  static var none: SignatureProofs { SignatureProofs(path: nil) }

  /// Whether `proof` was verified at an earlier start (or earlier in this
  /// one).
  func holds(_ proof: Proof) -> Bool { known.contains(proof) }

  /// Keeps `proof`, just verified over a file read unchanged (its status
  /// the same before and after), when its change time lies before
  /// `tick`, the coarse clock's reading taken before it was read.
  func record(_ proof: Proof, readSince tick: Int64) {
    guard path != nil, proof.file.changed < tick, !known.contains(proof) else { return }
    known.insert(proof)
    ordered.append(proof)
    changed = true
  }

  /// The coarse real-time clock, which the kernel stamps files with, in
  /// nanoseconds.
  static func tick() -> Int64 {
    var now = timespec()
    // CLOCK_REALTIME_COARSE; Glibc's Swift module does not export it.
    guard clock_gettime(clockid_t(5), &now) == 0 else { return 0 }
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
  }

  /// Writes the proofs back when this start added any: to a new file in
  /// the same folder, then renamed over the old one, so a reader never
  /// sees half of it. Returns the warning to show when that fails.
  func save() -> String? {
    guard changed, let path else { return nil }
    changed = false
    let kept = ordered.suffix(Self.capacity)
    var text = Self.header + "\n"
    for proof in kept { text += proof.line + "\n" }
    let temporary = path + ".\(getpid()).new"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    func failed(_ operation: String) -> String {
      let reason = String(cString: strerror(errno))
      return "could not save the signature proofs file \(Terminal.sanitize(path)): \(operation): \(reason); "
        + "the next start verifies these signatures in full again"
    }
    guard descriptor >= 0 else { return failed("create \(Terminal.sanitize(temporary))") }
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { buffer in
        buffer.baseAddress.map { write(descriptor, $0 + offset, bytes.count - offset) } ?? -1
      }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else {
        let warning = failed("write")
        close(descriptor)
        unlink(temporary)
        return warning
      }
      offset += written
    }
    guard close(descriptor) == 0 else {
      let warning = failed("write")
      unlink(temporary)
      return warning
    }
    guard rename(temporary, path) == 0 else {
      let warning = failed("rename")
      unlink(temporary)
      return warning
    }
    return nil
  }

  /// Takes in the proofs `bytes` holds; a file of another format, or a
  /// line that does not read, is skipped: it only costs a verification.
  private func read(_ bytes: [UInt8]) {
    let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
    guard let first = lines.first, Array(first) == Array(Self.header.utf8) else { return }
    for line in lines.dropFirst() {
      let fields = line.split(separator: UInt8(ascii: " "))
      guard fields.count == 6,
        let device = UInt64(String(decoding: fields[0], as: UTF8.self)),
        let inode = UInt64(String(decoding: fields[1], as: UTF8.self)),
        let size = Int64(String(decoding: fields[2], as: UTF8.self)),
        let modified = Int64(String(decoding: fields[3], as: UTF8.self)),
        let changed = Int64(String(decoding: fields[4], as: UTF8.self)),
        let digest = Self.digest(hex: fields[5])
      else { continue }
      let proof = Proof(
        file: Stamp(device: device, inode: inode, size: size, modified: modified, changed: changed),
        digest: digest)
      guard !known.contains(proof) else { continue }
      known.insert(proof)
      ordered.append(proof)
    }
  }

  /// `field` when it is 64 lower-case hexadecimal digits, as a digest is
  /// written.
  private static func digest(hex field: ArraySlice<UInt8>) -> String? {
    guard TextBytes.areLowercaseHex(field, count: 64) else { return nil }
    return String(decoding: field, as: UTF8.self)
  }
}
