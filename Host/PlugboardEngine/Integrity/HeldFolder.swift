import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The folder of an unpinned plugin, held open by a descriptor for the rest
/// of the process, through which the dynamic loader is handed the plugin:
/// `/proc/self/fd/<dirfd>/lib….so`. The loader's `$ORIGIN` is then the held
/// folder, so the plugin and the neighbours it finds beside it come from
/// the folder that was vetted, whatever any link or folder name on the
/// written or canonical path leads to by the time `dlopen` runs; and the
/// plugin's name in it must still be the very file vetted (its device and
/// inode), or nothing is opened.
///
/// The folder is held before the plugin's closure is vetted, and the
/// vetting reads and judges the neighbours through it (``PluginNeeds``
/// searches the held folder as the loader's `$ORIGIN`): a folder renamed
/// into the plugin's place between the vetting and `dlopen` changes
/// neither. What is left: the names inside the held folder, which only
/// root and the user running plugboard can change (the folder passed the
/// folder check). A pinned plugin is loaded from sealed copies instead
/// (``PinnedLibrary``).
///
/// The descriptors are never closed: the loader keeps the name it was
/// given for each object it mapped, and matches a later `dlopen` of the
/// same name against it, so a descriptor number reused for another folder
/// would hand a later plugin the library loaded from this one. One is
/// held per folder, however many plugins it holds.
struct HeldFolder {
  /// What the loader is given: the plugin's name in the held folder.
  let libraryPath: String
  /// The held folder, as the loader names it and what it maps from it.
  let loaderFolder: String
  /// The folder's canonical path, for messages.
  let folder: String

  /// Why the plugin was not handed to the loader.
  enum Failure: Error, Equatable {
    /// The folder could not be opened, or the plugin's name in it examined.
    case unopenable(SystemCallError)
    /// The plugin's name in its folder is no longer the file vetted
    /// (replaced, or a link now).
    case changed
  }

  /// Folder descriptors by the folder's device and inode, and every
  /// number ever handed to the loader.
  private struct Held {
    var byFolder: [FileIdentity: Int32] = [:]
    var used: Set<Int32> = []
  }
  private static let held = Mutex(Held())

  /// Holds the folder of `file` (canonical) and checks that its name there
  /// is the file whose identity is `vetted`. Without `/proc`, the loader is
  /// given `file` itself.
  static func hold(_ file: String, vetted: FileIdentity) -> Result<HeldFolder, Failure> {
    let folder = FilePath.directory(of: file)
    let name = String(file[file.index(after: file.lastIndex(of: "/") ?? file.startIndex)...])
    let opened = Glibc.open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard opened >= 0 else { return .failure(.unopenable(SystemCallError("open \(folder)"))) }
    var status = stat()
    guard fstat(opened, &status) == 0 else {
      let failure = SystemCallError("stat \(folder)")
      close(opened)
      return .failure(.unopenable(failure))
    }
    let identity = FileIdentity(status)
    let descriptor = held.withLock { held in
      // Plugin code shares the process's descriptors and may have closed
      // the one held (or the number may name something else now): it is
      // used again only while it still is this folder.
      if let known = held.byFolder[identity], known == opened || Self.identity(of: known) == identity {
        // The number just opened may be the held one, closed and reused.
        if known != opened { close(opened) }
        return known
      }
      let fresh = Self.unused(opened, avoiding: held.used)
      held.byFolder[identity] = fresh
      held.used.insert(fresh)
      return fresh
    }
    var named = stat()
    guard fstatat(descriptor, name, &named, AT_SYMLINK_NOFOLLOW) == 0 else {
      return .failure(.unopenable(SystemCallError("stat \(file)")))
    }
    guard named.st_mode & S_IFMT == S_IFREG, FileIdentity(named) == vetted else { return .failure(.changed) }
    let throughDescriptor = "/proc/self/fd/\(descriptor)"
    let loaderFolder = access(throughDescriptor, F_OK) == 0 ? throughDescriptor : folder
    return .success(
      HeldFolder(libraryPath: loaderFolder + "/" + name, loaderFolder: loaderFolder, folder: folder))
  }

  /// Whether the loader is handed the folder through its descriptor (not
  /// its path, as without `/proc`).
  var isHeld: Bool { loaderFolder != folder }

  /// `path`, a file found through the held folder, named by the folder's
  /// canonical path; any other path as it is. Byte tests: a survey names
  /// every library it finds, and `contains` on a String, in a module that
  /// imports Foundation, is Foundation's locale-aware search.
  func named(_ path: String) -> String {
    guard isHeld, path.utf8.starts(with: loaderFolder.utf8),
      path.utf8.dropFirst(loaderFolder.utf8.count).first == UInt8(ascii: "/")
    else { return path }
    return folder + path.dropFirst(loaderFolder.count)
  }

  /// `text` with the held folder named by its canonical path: what the
  /// vetting and the loader found through the descriptor, as the user
  /// knows the folder.
  func shown(_ text: String) -> String {
    guard isHeld, text.contains(loaderFolder) else { return text }
    var result = ""
    var rest = Substring(text)
    while let range = rest.range(of: loaderFolder) {
      result += rest[..<range.lowerBound]
      // `/proc/self/fd/1` is not the start of `/proc/self/fd/12`.
      if let next = rest[range.upperBound...].first, next.isASCII, next.isNumber {
        result += rest[range]
      } else {
        result += folder
      }
      rest = rest[range.upperBound...]
    }
    return result + rest
  }

  /// The device and inode of what `descriptor` names now, if it is open.
  private static func identity(of descriptor: Int32) -> FileIdentity? {
    var status = stat()
    return fstat(descriptor, &status) == 0 ? FileIdentity(status) : nil
  }

  /// `descriptor`, or a copy of it at a number the loader was never given
  /// (the original closed): the loader matches a later `dlopen` by name, so
  /// a number that once named another folder must not name this one.
  private static func unused(_ descriptor: Int32, avoiding used: Set<Int32>) -> Int32 {
    guard used.contains(descriptor), let highest = used.max() else { return descriptor }
    let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, highest + 1)
    guard copy >= 0 else { return descriptor }
    close(descriptor)
    return copy
  }

  /// Opens the plugin: every symbol bound now, local, never unloaded (as
  /// ``DynamicLibrary/open(_:)``). The loaded libraries are recorded, and
  /// the loader's message told, by their real folder's name.
  func open() -> Result<DynamicLibrary, DynamicLoaderError> {
    guard loaderFolder != folder else { return DynamicLibrary.open(libraryPath) }
    LoadedLibraries.holdFolder(loaderFolder, is: folder)
    LoadedLibraries.expect(libraryPath, file: folder + libraryPath.dropFirst(loaderFolder.count))
    return DynamicLibrary.open(libraryPath).mapError { error in
      DynamicLoaderError(text: error.text.replacingOccurrences(of: loaderFolder + "/", with: folder + "/"))
    }
  }
}

/// A file's device and inode: the same file, whatever path leads to it.
struct FileIdentity: Hashable, Sendable {
  let device: UInt64
  let inode: UInt64

  init(_ status: stat) {
    device = UInt64(status.st_dev)
    inode = UInt64(status.st_ino)
  }
}
