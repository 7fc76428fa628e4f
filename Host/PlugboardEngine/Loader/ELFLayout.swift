#if canImport(Glibc)
  import Glibc
#endif

/// Whether an ELF file is whole: long enough for its program headers and
/// for every loadable segment they declare. `dlopen` maps segments past
/// the end of a truncated file, and the first touch of such a page kills
/// the process with SIGBUS, so the check comes before it.
enum ELFLayout {
  /// Program headers beyond this many bytes are not a real library's.
  static let maximumHeaderBytes = 1 << 20

  /// The problem with the file `file` reads (`path`, for the rebuild
  /// advice), continuing "plugin 'X' (path) …", or nil when its layout is
  /// whole (or it is not ELF: the header check reports that).
  static func problem(in file: FileBytes, path: String) -> String? {
    guard let size = file.size else { return nil }
    let header = Array(file.read(at: 0, count: 64))
    guard header.count >= 52, header.starts(with: [0x7F, 0x45, 0x4C, 0x46]) else { return nil }
    let wide = header[4] == 2
    let little = header[5] == 1
    let field = FieldReader(bytes: header, littleEndian: little)
    guard !wide || header.count >= 64 else { return truncated(size, needs: 64, what: "its ELF header") }
    let tableOffset = wide ? field.value(at: 32, width: 8) : field.value(at: 28, width: 4)
    let entrySize = field.value(at: wide ? 54 : 42, width: 2)
    let count = field.value(at: wide ? 56 : 44, width: 2)
    let tableBytes = entrySize * count
    guard tableBytes <= UInt64(maximumHeaderBytes), entrySize >= (wide ? 56 : 32) || count == 0 else {
      return "has an ELF header declaring \(count) program headers of \(entrySize) bytes; "
        + "expected a shared library's — rebuild it: \(RebuildCommand.forLibrary(at: path))"
    }
    let (tableEnd, overflow) = tableOffset.addingReportingOverflow(tableBytes)
    guard !overflow, tableEnd <= size else {
      return truncated(size, needs: overflow ? UInt64.max : tableEnd, what: "its program headers")
    }
    let table = Array(file.read(at: tableOffset, count: Int(tableBytes)))
    guard UInt64(table.count) == tableBytes else {
      return truncated(size, needs: tableEnd, what: "its program headers")
    }
    let entries = FieldReader(bytes: table, littleEndian: little)
    for index in 0..<Int(count) {
      let base = index * Int(entrySize)
      guard entries.value(at: base, width: 4) == 1 else { continue }  // PT_LOAD
      let offset = wide ? entries.value(at: base + 8, width: 8) : entries.value(at: base + 4, width: 4)
      let length = wide ? entries.value(at: base + 32, width: 8) : entries.value(at: base + 16, width: 4)
      let (end, overflow) = offset.addingReportingOverflow(length)
      if overflow || end > size {
        return truncated(size, needs: overflow ? UInt64.max : end, what: "its loadable segment \(index)")
      }
    }
    return nil
  }

  private static func truncated(_ size: UInt64, needs end: UInt64, what: String) -> String {
    "is truncated: it has \(size) bytes, but \(what) end\(what.hasPrefix("its program") ? "" : "s") at byte "
      + "\(end) — the file was cut short (an interrupted copy or build?); build or copy it again"
  }

  private struct FieldReader {
    let bytes: [UInt8]
    let littleEndian: Bool

    /// The unsigned integer of `width` bytes at `offset`; 0 past the end.
    func value(at offset: Int, width: Int) -> UInt64 {
      guard offset >= 0, offset + width <= bytes.count else { return 0 }
      var result: UInt64 = 0
      for index in 0..<width {
        let byte = UInt64(bytes[littleEndian ? offset + width - 1 - index : offset + index])
        result = result << 8 | byte
      }
      return result
    }
  }
}
