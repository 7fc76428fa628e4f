import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A second user, for the tests that run plugboard as someone other than
/// root: `nobody` (uid and gid 65534, no other groups), whom CI's root
/// starts with `setpriv`.
///
/// Such a test must first know that `nobody` can reach what it runs: a
/// checkout inside a folder only root may enter (root's own home is mode
/// 0700) leaves the build out of `nobody`'s reach, and plugboard, started
/// there as `nobody`, cannot even start. ``unreachable(_:)`` says why, in
/// the test's skip reason.
enum OtherUser {
  static let uid: uid_t = 65_534
  static let gid: gid_t = 65_534

  /// Why `nobody` cannot reach one of `paths` (search every folder on the
  /// way, through links too, and read the file, or run it when it is
  /// executable), or nil when it can reach them all.
  static func unreachable(_ paths: [String]) -> String? {
    for path in paths {
      let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
      for route in Set([path, real]).sorted() {
        if let reason = unreachable(route, leaf: route == real) { return reason }
      }
    }
    return nil
  }

  /// The first folder above `path` that `nobody` cannot search, or `path`
  /// itself when `leaf` and it cannot read it (and run it, when it is
  /// executable for its owner).
  private static func unreachable(_ path: String, leaf: Bool) -> String? {
    var folders: [String] = []
    var folder = (path as NSString).deletingLastPathComponent
    while true {
      folders.insert(folder, at: 0)
      guard folder != "/", !folder.isEmpty else { break }
      folder = (folder as NSString).deletingLastPathComponent
    }
    for folder in folders {
      guard let status = status(of: folder) else { return "\(folder) cannot be examined" }
      if !allowed(status, bit: 0o1) { return describe(folder, status, missing: "search") }
    }
    guard leaf else { return nil }
    guard let status = status(of: path) else { return "\(path) does not exist" }
    if !allowed(status, bit: 0o4) { return describe(path, status, missing: "read") }
    if status.st_mode & 0o100 != 0, !allowed(status, bit: 0o1) {
      return describe(path, status, missing: "run")
    }
    return nil
  }

  private static func status(of path: String) -> stat? {
    var status = stat()
    return stat(path, &status) == 0 ? status : nil
  }

  /// Whether `nobody` has permission `bit` (4 read, 1 search or run) on
  /// a file with `status`: the owner's bits if it owns it, else the
  /// group's if it is in its group, else everyone else's.
  private static func allowed(_ status: stat, bit: mode_t) -> Bool {
    let mode = status.st_mode
    if status.st_uid == uid { return mode & (bit << 6) != 0 }
    if status.st_gid == gid { return mode & (bit << 3) != 0 }
    return mode & bit != 0
  }

  private static func describe(_ path: String, _ status: stat, missing: String) -> String {
    let mode = String(status.st_mode & 0o7777, radix: 8)
    return "nobody (uid \(uid)) cannot \(missing) \(path) (mode 0\(mode), owner uid \(status.st_uid))"
  }
}
