import PlugboardLoaderModel

#if canImport(Glibc)
  import Glibc
#endif

/// The parts of a 64-bit little-endian ELF shared object's dynamic section
/// that decide where its dependencies are looked for: `DT_NEEDED` and the
/// run path (`DT_RUNPATH`, or the older `DT_RPATH`), and what must be
/// refused before `dlopen` runs anything of the file (see
/// ``UnsafeLibrary``): the program headers' permissions, `DT_FLAGS_1`, and
/// which `plugboard_entry_v*` symbols its dynamic symbol table defines.
///
/// Read by the loader model's C reader (`plugboard_elf_dynamic.h`), the one
/// the launcher vets the host's libraries with, so both judge a file by the
/// same reading of it and the same bounds; this type gives its results
/// types and its problems words.
struct ELFDynamicInfo: Equatable {
  /// The names of the libraries it needs, in order.
  let needed: [String]
  /// The run path's entries, in order, as written (`$ORIGIN` unexpanded).
  let runPath: [String]
  /// The `DT_NEEDED` names holding a `/`, which the loader opens as paths.
  var namedByPath: [String] { needed.filter { $0.utf8.contains(UInt8(ascii: "/")) } }
  /// Whether its `PT_GNU_STACK` header asks for an executable stack: the
  /// loader then makes the stack of every thread of the process executable.
  var executableStack = false
  /// The index of the first loadable segment that is both writable and
  /// executable, if any.
  var writableExecutableSegment: Int?
  /// `DT_FLAGS_1`, 0 when absent.
  var flags1: UInt64 = 0
  /// The versions `N` of the `plugboard_entry_vN` symbols its dynamic
  /// symbol table defines, in table order; nil when it has no table that
  /// can be read (no `DT_SYMTAB`, or neither `DT_HASH` nor `DT_GNU_HASH`).
  var entryVersions: [UInt32]?

  /// `DF_1_NOOPEN`: the object may not be opened by `dlopen`.
  static let noOpenFlag: UInt64 = 0x40

  /// A malformed or unsupported file, said as "found …".
  struct Defect: Error, Equatable {
    let found: String
  }

  static func read(_ descriptor: Int32) -> Result<ELFDynamicInfo, Defect> {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      return .failure(Defect(found: "a file that cannot be examined"))
    }
    return read(descriptor, size: UInt64(status.st_size))
  }

  /// The same, from the descriptor and size ``FileBytes`` holds.
  static func read(_ file: FileBytes) -> Result<ELFDynamicInfo, Defect> {
    guard let size = file.size else { return .failure(Defect(found: "a file that cannot be examined")) }
    return read(file.descriptor, size: size)
  }

  private static func read(_ descriptor: Int32, size: UInt64) -> Result<ELFDynamicInfo, Defect> {
    // About 70 KiB: on the heap, not the stack of whichever thread reads.
    let dynamic = UnsafeMutablePointer<plugboard_elf_dynamic>.allocate(capacity: 1)
    defer { dynamic.deallocate() }
    let problem = plugboard_elf_dynamic_read(descriptor, off_t(clamping: size), dynamic)
    guard problem == PLUGBOARD_ELF_SOUND else { return .failure(Defect(found: words(problem))) }
    let count = Int(dynamic.pointee.needed_count)
    let needed = withUnsafeBytes(of: &dynamic.pointee.needed) { names in
      let stride = names.count / Int(PLUGBOARD_ELF_MAX_NEEDED)
      return (0..<count).map { index in
        Self.string(UnsafeRawBufferPointer(rebasing: names[index * stride..<(index + 1) * stride]))
      }
    }
    // Empty entries kept: the loader takes one as the current directory.
    let runPath =
      dynamic.pointee.has_search_path == 0
      ? []
      : withUnsafeBytes(of: &dynamic.pointee.search_path) { Self.string($0) }
        .split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    var versions = [UInt32](repeating: 0, count: Int(PLUGBOARD_ELF_MAX_ENTRY_VERSIONS))
    var found: Int32 = 0
    let readable = plugboard_elf_entry_versions(descriptor, dynamic, &versions, &found) != 0
    let segment = dynamic.pointee.writable_executable_segment
    return .success(
      ELFDynamicInfo(
        needed: needed, runPath: runPath, executableStack: dynamic.pointee.executable_stack != 0,
        writableExecutableSegment: segment < 0 ? nil : Int(segment), flags1: dynamic.pointee.flags1,
        entryVersions: readable ? Array(versions.prefix(Int(found))) : nil))
  }

  /// The NUL-terminated text at the start of `bytes` (the reader checked
  /// that each name it returns ends inside its buffer).
  private static func string(_ bytes: UnsafeRawBufferPointer) -> String {
    let end = bytes.firstIndex(of: 0) ?? bytes.count
    return String(decoding: bytes[..<end], as: UTF8.self)
  }

  /// What the reader found wrong, continuing "found ".
  private static func words(_ problem: plugboard_elf_problem) -> String {
    switch problem {
    case PLUGBOARD_ELF_NOT_ELF: "a file that is not a 64-bit little-endian ELF object for x86-64 or AArch64"
    case PLUGBOARD_ELF_NOT_LOADABLE: "a file that is neither a program nor a shared library"
    case PLUGBOARD_ELF_TOO_MANY_PROGRAM_HEADERS, PLUGBOARD_ELF_PROGRAM_HEADERS_MALFORMED:
      "program headers of an unexpected size or number"
    case PLUGBOARD_ELF_PROGRAM_HEADERS_OUTSIDE: "program headers that lie beyond the end of the file"
    case PLUGBOARD_ELF_SEVERAL_DYNAMIC_SECTIONS: "more than one dynamic section"
    case PLUGBOARD_ELF_DYNAMIC_NOT_MAPPED: "a dynamic section that is not where it is loaded"
    case PLUGBOARD_ELF_DYNAMIC_TOO_LARGE: "a dynamic section larger than any library's"
    case PLUGBOARD_ELF_DYNAMIC_OUTSIDE: "a dynamic section that lies beyond the end of the file"
    case PLUGBOARD_ELF_TOO_MANY_NEEDED: "more than \(PLUGBOARD_ELF_MAX_NEEDED) needed libraries"
    case PLUGBOARD_ELF_STRINGS_OUTSIDE: "a string table outside every loadable segment"
    case PLUGBOARD_ELF_STRINGS_UNREADABLE: "a string table that cannot be read"
    case PLUGBOARD_ELF_NAME_OUTSIDE: "a name outside its string table"
    case PLUGBOARD_ELF_NAME_TOO_LONG: "a name longer than a library's file name or a run path can be"
    case PLUGBOARD_ELF_NAME_UNTERMINATED: "a name that runs past the end of its string table"
    default: "a file that cannot be read"
    }
  }
}
