#if canImport(Glibc)
  import Glibc
#endif

/// A written path followed component by component, as the kernel follows
/// it, judging every symbolic link met on the way, not only the last one
/// (as systemd's `chase()` does with `CHASE_SAFE`): whoever can re-point
/// any link of `shared/current/libKeychain.so` chooses the file, though
/// every folder of where it leads today is safe.
///
/// A link must be owned by root or the user running plugboard, and lie in
/// a folder that passes the folder check with no sticky exception
/// (``FileTrust/Exposed/link``), the folders above judged as usual.
/// Shared by everything plugboard reads code or configuration from by a
/// written path: plugins, drop-in folders, the manifest and setting files.
package enum LinkChase {
  /// As the kernel's limit on links followed in one path (`ELOOP`).
  static let maximumLinks = 40

  /// The first link on the way to `path` that someone other than root and
  /// `user` could re-point, said as "is reached through the link L, which
  /// …"; nil when there is none, or when the path cannot be followed (a
  /// missing component, a loop: the caller's own opening reports that).
  /// `above` judges the folders above a link's folder (a cache of verdicts
  /// may answer); `thing` names what the path leads to.
  static func problem(
    _ path: String, user: uid_t, thing: String, stake: String, above: ((String) -> String?)? = nil
  ) -> String? {
    let above =
      above ?? {
        FileTrust.foldersProblem(from: $0, user: user, thing: "the link, and so \(thing)", stake: stake)
      }
    // Components still to walk, last first, and the folder reached so far
    // as one path: extended and cut in place, because this runs for every
    // plugin, manifest and setting file at each start-up.
    var pending = Array(path.split(separator: "/", omittingEmptySubsequences: true).reversed())
    var reached = "/"
    var followed = 0
    while let component = pending.popLast() {
      if component == "." { continue }
      if component == ".." {
        // `/`'s parent is `/`, as the kernel has it.
        reached = FilePath.directory(of: reached)
        continue
      }
      let next = (reached == "/" ? "/" : reached + "/") + component
      var status = stat()
      guard lstat(next, &status) == 0 else { return nil }
      guard status.st_mode & S_IFMT == S_IFLNK else {
        reached = next
        continue
      }
      followed += 1
      guard followed <= maximumLinks, let target = FilePath.linkTarget(next) else { return nil }
      if let problem = linkProblem(
        next, status: status, folder: reached, user: user, thing: thing, stake: stake)
        ?? (reached == "/" ? nil : above(FilePath.directory(of: reached)))
      {
        return "is reached through the link \(Terminal.sanitize(next)), which \(problem)"
      }
      if target.hasPrefix("/") { reached = "/" }
      pending += target.split(separator: "/", omittingEmptySubsequences: true).reversed()
    }
    return nil
  }

  /// What is wrong with the link `link` itself or its folder, continuing
  /// "the link L, which ".
  private static func linkProblem(
    _ link: String, status: stat, folder: String, user: uid_t, thing: String, stake: String
  ) -> String? {
    if status.st_uid != 0, status.st_uid != user {
      return "is owned by uid \(status.st_uid), neither root nor the user running plugboard (uid \(user)); "
        + "its owner can point it at another file and \(stake) — make root or yourself its owner: chown -h "
        + "root \(Terminal.sanitize(link))"
    }
    return FileTrust.folderProblem(
      folder, user: user, thing: "the link, and so \(thing)", stake: stake, exposed: .link)
  }
}
