import PlugboardLoaderModel

#if canImport(Glibc)
  import Glibc
#endif

/// A written path followed component by component, as the kernel follows
/// it, judging every symbolic link met on the way, not only the last one
/// (as systemd's `chase()` does with `CHASE_SAFE`): whoever can re-point
/// any link of `shared/current/libKeychain.so` chooses the file, though
/// every folder of where it leads today is safe.
///
/// The chase and its verdict are the loader model's
/// (`plugboard_link_chase.h`), the one the launcher vets the host with, so
/// the two never disagree about a link; this words the verdict. A link
/// must be owned by root or the user running plugboard, and lie in a
/// folder that passes the folder check with no sticky exception
/// (``FileTrust/Exposed/link``), the folders above judged as usual.
/// Shared by everything plugboard reads code or configuration from by a
/// written path: plugins, drop-in folders, the manifest and setting files.
package enum LinkChase {
  /// What the chase found on the way to a path.
  package enum Verdict: Equatable, Sendable {
    /// Every link on the way passes (or there is none); the path leads to
    /// `resolved`.
    case chased(resolved: String)
    /// The path cannot be followed (a missing component, a loop, a path
    /// too long): `error` is the errno. The caller's own opening reports
    /// it.
    case notFollowed(error: Int32)
    /// `link`, on the way, is owned by `owner`, neither root nor the user.
    case linkOwner(link: String, owner: uid_t)
    /// `folder` holds `link` (or lies above its folder, `above`) and is
    /// owned by someone else or writable by others, as `status` shows.
    case folder(link: String, folder: String, above: Bool, rule: FolderRule, status: stat)

    /// Why a folder on the way fails.
    package enum FolderRule: Equatable, Sendable {
      case owner
      case writable
    }

    package static func == (left: Verdict, right: Verdict) -> Bool {
      switch (left, right) {
      case (.chased(let a), .chased(let b)): a == b
      case (.notFollowed(let a), .notFollowed(let b)): a == b
      case (.linkOwner(let a, let x), .linkOwner(let b, let y)): a == b && x == y
      case (
        .folder(let a, let f, let up, let rule, let status),
        .folder(let b, let g, let up2, let rule2, let other)
      ):
        a == b && f == g && up == up2 && rule == rule2 && status.st_uid == other.st_uid
          && status.st_mode == other.st_mode
      default: false
      }
    }
  }

  /// Follows the absolute `path`, judging each link met against `user`
  /// (besides root), with the loader model's chase.
  package static func verdict(_ path: String, user: uid_t) -> Verdict {
    var found = plugboard_link_verdict()
    let rule = plugboard_link_chase(path, user, &found)
    switch rule {
    case PLUGBOARD_LINK_CHASED: return .chased(resolved: withUnsafeBytes(of: &found.resolved, text))
    case PLUGBOARD_LINK_OWNER:
      return .linkOwner(link: withUnsafeBytes(of: &found.link, text), owner: found.status.st_uid)
    case PLUGBOARD_LINK_FOLDER_OWNER, PLUGBOARD_LINK_FOLDER_WRITABLE:
      return .folder(
        link: withUnsafeBytes(of: &found.link, text), folder: withUnsafeBytes(of: &found.folder, text),
        above: found.above != 0,
        rule: rule == PLUGBOARD_LINK_FOLDER_OWNER ? .owner : .writable, status: found.status)
    default: return .notFollowed(error: found.error)
    }
  }

  /// The first link on the way to `path` that someone other than root and
  /// `user` could re-point, said as "is reached through the link L, which
  /// …"; nil when there is none, or when the path cannot be followed (a
  /// missing component, a loop: the caller's own opening reports that).
  /// `thing` names what the path leads to, `stake` what whoever re-points
  /// the link could do.
  static func problem(_ path: String, user: uid_t, thing: String, stake: String) -> String? {
    switch verdict(path, user: user) {
    case .chased, .notFollowed: return nil
    case .linkOwner(let link, let owner):
      return
        "is reached through the link \(Terminal.sanitize(link)), which is owned by uid \(owner), neither "
        + "root nor the user running plugboard (uid \(user)); its owner can point it at another file and "
        + "\(stake) — make root or yourself its owner: chown -h root \(Terminal.sanitize(link))"
    case .folder(let link, let folder, let above, _, let status):
      let problem =
        FileTrust.folderProblem(
          folder, status: status, user: user, thing: "the link, and so \(thing)", stake: stake,
          exposed: above ? .nothing : .link, under: above)
        // The chase and the folder check judge alike; should they not,
        // the chase's refusal stands, said plainly.
        ?? "\(above ? "lies under" : "lies in") the folder \(Terminal.sanitize(folder)) "
        + "(\(FileTrust.describe(status))), which others can change — chmod go-w \(Terminal.sanitize(folder))"
      return "is reached through the link \(Terminal.sanitize(link)), which \(problem)"
    }
  }

  /// The C string in a fixed buffer of the verdict, up to its first NUL.
  /// Not generic over the buffer: the C arrays import as tuples of 4096
  /// elements, and a generic function would look up that tuple's type
  /// metadata (hashing every element) at each call.
  private static func text(_ buffer: UnsafeRawBufferPointer) -> String {
    String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
  }
}
