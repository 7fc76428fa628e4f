import PlugboardSupervision
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A fresh folder, mode 0700, that stands in for a pinned plugin's own
/// folder while the dynamic loader opens it: it holds a link with the
/// plugin's file name to the sealed copy (and a second, of a name unique in
/// the process, that the loader is handed), so the loader's `$ORIGIN` is
/// this folder, and a link to each neighbour the plugin needs from its real
/// folder, so `$ORIGIN` lookups still find them. It holds no library bytes
/// of its own; its links are removed as soon as `dlopen` returns, and the
/// folder once the bring-up has opened every plugin (``PrivateOrigins``).
///
/// The folder is reached through a descriptor opened on it right after
/// `mkdtemp`, checked with `fstat` (a folder of this user, mode 0700), and
/// everything after goes through that descriptor: the links are made with
/// `symlinkat`, and the loader is given `/proc/self/fd/<dirfd>/lib….so`,
/// which keeps `$ORIGIN` working (the loader's `$ORIGIN` is then the
/// descriptor's folder). Renaming the folder and putting a decoy in its
/// place, in a temporary folder others can write, changes nothing of what
/// is loaded (without the descriptor, an `inotify` racer in a non-sticky
/// `TMPDIR` loaded unpinned code in 1 of 100 runs). `TMPDIR` is used only
/// when it passes the folder check (``FileTrust``); otherwise `/dev/shm`,
/// then `/tmp` (``temporaryBases``).
struct PrivateOrigin {
  /// Folder names start with this, so a leftover (the process died inside
  /// `dlopen`) is recognisable: it holds only dangling links.
  static let prefix = "plugboard-pin-"

  let folder: String
  let libraryPath: String
  private let descriptor: Int32
  private let links: [String]

  /// Makes the folder, with no link yet, in the first of
  /// ``temporaryBases`` where `mkdtemp` succeeds.
  static func makeEmpty() -> Result<PrivateOrigin, SystemCallError> {
    var failure = SystemCallError("mkdtemp: no temporary folder")
    for base in temporaryBases {
      var template = Array("\(base)/\(prefix)XXXXXX".utf8CString)
      let made = template.withUnsafeMutableBufferPointer { buffer in
        buffer.baseAddress.flatMap { mkdtemp($0) }.map { String(cString: $0) }
      }
      guard let folder = made else {
        // A base the service may not write (`ProtectSystem=`, a read-only
        // mount) is passed over for the next.
        failure = SystemCallError("mkdtemp in \(base)")
        continue
      }
      return opening(folder)
    }
    return .failure(failure)
  }

  /// The folder `mkdtemp` just made, reached through a descriptor.
  private static func opening(_ folder: String) -> Result<PrivateOrigin, SystemCallError> {
    let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    var status = stat()
    guard descriptor >= 0, fstat(descriptor, &status) == 0 else {
      let failure = SystemCallError("open \(folder)")
      if descriptor >= 0 { close(descriptor) }
      return .failure(failure)
    }
    let origin = PrivateOrigin(folder: folder, libraryPath: "", descriptor: descriptor, links: [])
    // Between mkdtemp and open, the folder could have been swapped.
    guard status.st_mode & S_IFMT == S_IFDIR, status.st_uid == geteuid(), status.st_mode & 0o777 == 0o700
    else {
      origin.remove()
      errno = EPERM
      return .failure(SystemCallError("open \(folder) (it was replaced after it was made)"))
    }
    return .success(origin)
  }

  /// The folder with `library` (a file name) linking to `target`, and each
  /// of `neighbours` linking to its path, besides the links it holds; the
  /// loader is to open ``libraryPath``. A link that cannot be made undoes
  /// the ones this call made.
  ///
  /// The loader takes a path it has opened before for the library it
  /// opened then, without looking at the file, so ``libraryPath`` names a
  /// second link to `target` whose name no other call in this process
  /// gives (``openedName(of:)``). Through the folder's descriptor, the
  /// library's own name would repeat: two plugins of one file name in
  /// different folders, or a descriptor number reused after a folder was
  /// closed, and the second plugin would be handed the first. The link
  /// under the library's own name stays for the neighbours that need it
  /// by that name.
  func linking(library: String, target: String, neighbours: [(name: String, path: String)])
    -> Result<PrivateOrigin, SystemCallError>
  {
    let opened = Self.openedName(of: library)
    var made: [String] = []
    for (name, destination) in [(opened, target), (library, target)] + neighbours {
      guard symlinkat(destination, descriptor, name) == 0 else {
        let failure = SystemCallError("symlink \(folder)/\(name)")
        for link in made { unlinkat(descriptor, link, 0) }
        return .failure(failure)
      }
      made.append(name)
    }
    let throughDescriptor = "/proc/self/fd/\(descriptor)"
    let path = access(throughDescriptor, F_OK) == 0 ? throughDescriptor : folder
    return .success(
      PrivateOrigin(
        folder: folder, libraryPath: path + "/" + opened, descriptor: descriptor, links: links + made))
  }

  /// A name for `library`'s link that the loader is handed, unique in the
  /// process: `plugboard-opened-7-libAuth.so`. No dependency is looked up
  /// by such a name; one that is makes a link that exists already, and
  /// the plugin is refused rather than bound to the wrong file.
  static func openedName(of library: String) -> String {
    let number = opened.wrappingAdd(1, ordering: .relaxed).newValue
    return "plugboard-opened-\(number)-\(library)"
  }

  /// How many libraries this process has been handed through a private
  /// folder.
  private static let opened = Atomic<Int>(0)

  /// The folder emptied of its links, for the next plugin.
  func unlinkingAll() -> PrivateOrigin {
    for link in links { unlinkat(descriptor, link, 0) }
    return PrivateOrigin(folder: folder, libraryPath: "", descriptor: descriptor, links: [])
  }

  /// Removes the links and the folder; what the loader mapped stays mapped.
  func remove() {
    for link in links { unlinkat(descriptor, link, 0) }
    close(descriptor)
    rmdir(folder)
  }

  /// Removes `folder`, a private folder a child announced and did not
  /// remove (it died inside `dlopen`), when it is one: named as
  /// ``makeEmpty()`` names them in one of ``temporaryBases``, a real folder of
  /// this user with mode 0700, holding nothing but links.
  /// Anything else is left alone: the name came over a pipe that plugin
  /// code can write to.
  static func removeLeftover(_ folder: String) {
    guard let base = temporaryBases.lazy.map({ $0 + "/" + prefix }).first(where: { folder.hasPrefix($0) })
    else { return }
    let suffix = folder.utf8.dropFirst(base.utf8.count)
    guard suffix.count == 6,
      suffix.allSatisfy({
        (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
      })
    else { return }
    let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_uid == geteuid(), status.st_mode & 0o777 == 0o700 else {
      return
    }
    // Listed through the descriptor: the folder checked is the one read.
    guard case .success(let names) = FilePath.names(in: "/proc/self/fd/\(descriptor)", limit: 4096),
      names.count <= 4096,
      names.allSatisfy({ name in
        var link = stat()
        return fstatat(descriptor, name, &link, AT_SYMLINK_NOFOLLOW) == 0 && link.st_mode & S_IFMT == S_IFLNK
      })
    else { return }
    for name in names { unlinkat(descriptor, name, 0) }
    rmdir(folder)
  }

  /// Where private folders are made, in order: `$TMPDIR` when it is an
  /// absolute path that passes the folder check (the operator's choice);
  /// then `/dev/shm` when it is a memory file system that passes it; then
  /// `/tmp`. A private folder holds only links, made and removed at every
  /// start: on a disk file system each costs an inode allocated and freed
  /// (ext4 searches past recently freed ones), where a memory file system
  /// keeps them in memory.
  static var temporaryBases: [String] {
    temporaryBases(tmpdir: getenv("TMPDIR").map { String(cString: $0) })
  }

  /// The same, for the value `tmpdir` of `TMPDIR`.
  static func temporaryBases(tmpdir value: String?) -> [String] {
    var bases: [String] = []
    if let value, value.hasPrefix("/") {
      let folder = value.count > 1 && value.hasSuffix("/") ? String(value.dropLast()) : value
      if temporaryFolderProblem(folder) == nil { bases.append(folder) }
    }
    if isMemoryFileSystem(sharedMemory), temporaryFolderProblem(sharedMemory) == nil {
      bases.append(sharedMemory)
    }
    bases.append("/tmp")
    var seen: Set<String> = []
    return bases.filter { seen.insert($0).inserted }
  }

  /// The memory file system every Linux system mounts for POSIX shared
  /// memory: root's, sticky, like `/tmp`.
  static let sharedMemory = "/dev/shm"

  /// Whether `folder` lies on a memory file system (`tmpfs`).
  static func isMemoryFileSystem(_ folder: String) -> Bool {
    plugboard_is_memory_file_system(folder) == 1
  }

  /// Why `folder` is no place for a pinned or signed plugin's private folder,
  /// continuing "TMPDIR …", or nil.
  static func temporaryFolderProblem(_ folder: String) -> String? {
    FileTrust.foldersProblem(
      from: folder, user: geteuid(), thing: "a pinned or signed plugin's private folder",
      stake: "run code in plugboard"
    )
  }
}
