/// The one private folder (``PrivateOrigin``) that every pinned or signed
/// plugin of a bring-up is opened through: made for the first, emptied of
/// its links after each `dlopen`, removed when the bring-up has opened
/// every plugin. Making and removing a folder costs several times what its
/// links do (about 0.3 ms against 0.05 ms on an ext4 `/tmp`), once per
/// plugin when each had its own.
///
/// The folder is announced to the supervising parent when it is made and
/// again when it is removed: a child that dies in between (a constructor
/// that crashes inside `dlopen`) leaves it for the parent to remove, which
/// it does only for a folder holding nothing but links. The bring-up opens
/// one plugin after the other, on one thread.
final class PrivateOrigins {
  private var made: PrivateOrigin?

  /// The folder, made and announced to `progress` at the first call.
  func folder(announcingTo progress: ChildSession) -> Result<PrivateOrigin, SystemCallError> {
    if let made { return .success(made) }
    return PrivateOrigin.makeEmpty().map { origin in
      progress.report(.privateFolder(origin.folder))
      made = origin
      return origin
    }
  }

  /// Removes the links `used` made once its `dlopen` returned; what the
  /// loader mapped stays mapped.
  func release(_ used: PrivateOrigin) {
    made = used.unlinkingAll()
  }

  /// Removes the folder, if one was made, and tells `progress`.
  func finish(announcingTo progress: ChildSession) {
    guard let made else { return }
    made.remove()
    self.made = nil
    progress.report(.privateFolder(nil))
  }
}
