#if canImport(Glibc)
  import Glibc
#endif

/// Who can change a file or a folder, judged as sudo and OpenSSH's
/// `StrictModes` judge it: a file that brings code or configuration must be
/// owned by root or the user running plugboard and writable by no one
/// else, and so must every folder above it, since whoever can rename
/// things in a folder can put another file in its place. A folder
/// writable by all is allowed when it is root's and sticky (`/tmp`):
/// others can add files there but not replace someone else's.
///
/// Shared by the plugin vetting (``PluginVetting``), the manifest
/// (``ManifestFile``) and the drop-in folders; each says what is at stake
/// in its own words. Each problem continues the sentence its caller
/// starts ("plugin 'X' (path) …", "refusing the manifest … :") and names
/// the path, its mode and owner, and the fix.
package enum FileTrust {
  /// The problem with the file `path` whose status is `status`: `what` is
  /// the verb phrase for an owner problem ("is"), `stake` what its writer
  /// could do ("run code in plugboard").
  package static func fileProblem(_ status: stat, at path: String, user: uid_t, stake: String) -> String? {
    if let problem = ownership(status, of: path, what: "is", user: user, stake: stake) { return problem }
    guard status.st_mode & (S_IWGRP | S_IWOTH) != 0 else { return nil }
    return "is writable by \(writers(status, at: path)) (\(describe(status))); anyone who can write it can "
      + "\(stake) — remove the write permission: chmod go-w \(Terminal.sanitize(path))"
  }

  /// What a folder holds that a sticky bit does not protect, so that it
  /// gets no sticky exception.
  enum Exposed {
    /// Nothing: root's sticky folder (`/tmp`) is allowed, since others
    /// can add files there but not replace someone else's.
    case nothing
    /// The dynamic loader searches it (`$ORIGIN`, a run path folder, a
    /// subfolder tried first): adding a library there is the attack.
    case searchedByLoader
    /// A symbolic link plugboard follows: removed, even by its owner
    /// redeploying, anyone can make it again, leading anywhere.
    case link
  }

  /// What is wrong with `folder` itself (not the folders above it); `thing`
  /// names what lies in it ("the plugin").
  static func folderProblem(
    _ folder: String, user: uid_t, thing: String, stake: String, exposed: Exposed = .nothing
  ) -> String? {
    guard let status = status(folder) else {
      return "lies in \(Terminal.sanitize(folder)), which cannot be examined"
    }
    return folderProblem(folder, status: status, user: user, thing: thing, stake: stake, exposed: exposed)
  }

  /// The same, for `folder` whose status is `status`, taken already (by
  /// the loader model's link chase); `under` says the folder lies above
  /// the one holding the thing ("lies under the folder").
  static func folderProblem(
    _ folder: String, status: stat, user: uid_t, thing: String, stake: String, exposed: Exposed = .nothing,
    under: Bool = false
  ) -> String? {
    // Every folder of every path vetted passes through here, most of them
    // with no problem: the words are made only for one that has.
    let place = under ? "lies under the folder" : "lies in the folder"
    if let problem = ownership(
      status, of: folder, what: "\(place) \(Terminal.sanitize(folder)), which is", user: user, stake: stake)
    {
      return problem
    }
    guard status.st_mode & (S_IWGRP | S_IWOTH) != 0 else { return nil }
    let sticky = status.st_mode & S_ISVTX != 0 && status.st_uid == 0
    if sticky, exposed == .nothing { return nil }
    let shown = Terminal.sanitize(folder)
    let writable =
      "\(place) \(shown), which is writable by \(writers(status, at: folder)) (\(describe(status)))"
    switch (sticky, exposed) {
    case (true, .nothing): return nil
    case (true, .searchedByLoader):
      return writable + " and searched by the dynamic loader: its sticky bit stops no one adding a library "
        + "there, or a subfolder the loader searches first — chmod go-w \(shown)"
    case (true, .link):
      return writable + ": its sticky bit keeps the link only while it exists; removed, anyone can make it "
        + "again, leading anywhere — chmod go-w \(shown)"
    case (false, _):
      return writable + "; anyone who can write there can replace \(thing) — chmod go-w \(shown)"
    }
  }

  /// The problem of the nearest folder from `start` up to `/` that has
  /// one, or nil; without a cache, for a single file (the manifest).
  package static func foldersProblem(from start: String, user: uid_t, thing: String, stake: String) -> String?
  {
    var folder = start
    while true {
      if let problem = folderProblem(folder, user: user, thing: thing, stake: stake) { return problem }
      if folder == "/" { return nil }
      folder = FilePath.directory(of: folder)
    }
  }

  static func ownership(
    _ status: stat, of path: String, what: @autoclosure () -> String, user: uid_t, stake: String
  ) -> String? {
    guard status.st_uid != 0, status.st_uid != user else { return nil }
    return
      "\(what()) owned by uid \(status.st_uid), neither root nor the user running plugboard (uid \(user)); "
      + "its owner can \(stake) — make root or yourself its owner"
  }

  package static func status(_ path: String) -> stat? {
    var status = stat()
    return stat(path, &status) == 0 ? status : nil
  }

  static func writers(_ mode: mode_t) -> String {
    switch (mode & S_IWGRP != 0, mode & S_IWOTH != 0) {
    case (true, true): "group and others"
    case (true, false): "its group"
    default: "others"
    }
  }

  /// Who besides its owner can write the file or folder at `path` whose
  /// status is `status`: as ``writers(_:)`` says from the mode, unless an
  /// access ACL names users or groups, whose write permission the mode
  /// shows only as its group's bit ("uid 1001 through its access control
  /// list"). `chmod go-w` clears that bit, the ACL's mask, and so their
  /// write permission as well.
  static func writers(_ status: stat, at path: String) -> String {
    guard status.st_mode & S_IWGRP != 0, let acl = AccessControlList.of(path), acl.isExtended else {
      return writers(status.st_mode)
    }
    let named = acl.writers.filter { $0 != "others" }
    return listed(named) + " through its access control list (getfacl \(Terminal.sanitize(path)))"
      + (status.st_mode & S_IWOTH != 0 ? ", and others" : "")
  }

  /// Who besides the owner may read the file at `path` whose status is
  /// `status` and whose access ACL is `acl`: as ``readers(_:)`` says from
  /// the mode, unless the ACL names users or groups. Then the mode's group
  /// bits are the ACL's mask, and "its group can read" would name the
  /// wrong people: the users and groups its entries let read are named
  /// ("uid 1001 through an entry of its access control list (getfacl
  /// PATH)"), then the owning group and others if they can read too.
  static func readers(_ status: stat, acl: AccessControlList?, at path: String) -> String? {
    guard let acl, acl.isExtended else { return readers(status.st_mode) }
    let readers = acl.readers
    let named = readers.filter { $0 != "its group" && $0 != "others" }
    var parts = readers.filter { $0 == "its group" || $0 == "others" }
    if !named.isEmpty {
      parts.insert(
        listed(named) + " through an entry of its access control list (getfacl \(Terminal.sanitize(path)))",
        at: 0)
    }
    return parts.isEmpty ? nil : listed(parts)
  }

  /// "a", "a and b", "a, b and c".
  private static func listed(_ items: [String]) -> String {
    items.count < 2
      ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
  }

  /// Who besides the owner may read a file of `mode` ("its group",
  /// "others", "group and others"), or nil for no one.
  static func readers(_ mode: mode_t) -> String? {
    switch (mode & S_IRGRP != 0, mode & S_IROTH != 0) {
    case (true, true): "group and others"
    case (true, false): "its group"
    case (false, true): "others"
    case (false, false): nil
    }
  }

  /// `mode 0777, owner uid 0`.
  static func describe(_ status: stat) -> String {
    let octal = String(status.st_mode & 0o7777, radix: 8)
    return
      "mode \(String(repeating: "0", count: max(0, 4 - octal.count)))\(octal), owner uid \(status.st_uid)"
  }
}
