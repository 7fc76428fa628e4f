/// What a library asks of the process that no plugin may: refused from
/// its headers, before `dlopen` maps it and runs anything of it.
///
/// - An executable stack (`PT_GNU_STACK` marked `X`, from `-z execstack` or
///   an assembly file without a `.note.GNU-stack` section): glibc then
///   makes the stack of every thread of the process executable, for the
///   host and every other plugin.
/// - A loadable segment both writable and executable: code that a
///   memory-safety bug anywhere in the process can rewrite.
/// - `DF_1_NOOPEN` (`-z nodlopen`): its author said it must not be opened
///   this way.
///
/// A library without the entry symbol is refused by ``PluginLoader`` from
/// the same read of its dynamic symbol table (``ELFDynamicInfo/entryVersions``).
enum UnsafeLibrary {
  /// The problem, continuing "plugin 'X' (path) …", or nil.
  static func problem(_ info: ELFDynamicInfo, path: String) -> String? {
    if info.executableStack {
      return "asks for an executable stack (its PT_GNU_STACK header is marked executable): opening it would "
        + "make the stack of every thread of plugboard executable — rebuild it without -z execstack (and "
        + "without assembly that lacks a .note.GNU-stack section); check with: readelf -lW \(path) | grep GNU_STACK"
    }
    if let segment = info.writableExecutableSegment {
      return "has a loadable segment (program header \(segment)) that is both writable and executable, which "
        + "lets a memory-safety bug anywhere in plugboard write code — rebuild it so that no section is both "
        + "(check with: readelf -lW \(path) | grep LOAD)"
    }
    if info.flags1 & ELFDynamicInfo.noOpenFlag != 0 {
      return "is marked not to be opened by dlopen (DF_1_NOOPEN, linked with -z nodlopen); a plugin must be "
        + "openable — rebuild it without -z nodlopen"
    }
    return nil
  }
}
