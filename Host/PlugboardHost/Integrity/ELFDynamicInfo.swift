#if canImport(Glibc)
  import Glibc
#endif

/// The parts of a 64-bit little-endian ELF shared object's dynamic section
/// that decide where its dependencies are looked for: `DT_NEEDED` and the
/// run path (`DT_RUNPATH`, or the older `DT_RPATH`). Read with `pread`
/// from a descriptor, every offset and size checked against the file, so
/// a hostile file costs bounded time and memory.
struct ELFDynamicInfo: Equatable {
  /// The names of the libraries it needs, in order.
  let needed: [String]
  /// The run path's entries, in order, as written (`$ORIGIN` unexpanded).
  let runPath: [String]

  /// A malformed or unsupported file, said as "found …".
  struct Defect: Error, Equatable {
    let found: String
  }

  private static let maximumProgramHeaders = 4096
  private static let maximumDynamicEntries = 16384
  private static let maximumString = 4096

  static func read(_ descriptor: Int32) -> Result<ELFDynamicInfo, Defect> {
    read(FileBytes(descriptor: descriptor))
  }

  /// The same, from reads ``FileBytes`` shares with the other checks.
  static func read(_ file: FileBytes) -> Result<ELFDynamicInfo, Defect> {
    Result { () throws(Defect) in try Reader(file: file).info() }
  }

  private struct Reader {
    let file: FileBytes
    let size: UInt64

    init(file: FileBytes) throws(Defect) {
      guard let size = file.size else { throw Defect(found: "a file that cannot be examined") }
      self.file = file
      self.size = size
    }

    func bytes(at offset: UInt64, count: Int) throws(Defect) -> ArraySlice<UInt8> {
      guard count >= 0, offset <= size, UInt64(count) <= size - offset else {
        throw Defect(found: "a part that lies beyond the end of the file")
      }
      let result = file.read(at: offset, count: count)
      guard result.count == count else { throw Defect(found: "a file that cannot be read to the end") }
      return result
    }

    func info() throws(Defect) -> ELFDynamicInfo {
      let header = try bytes(at: 0, count: 64)
      let (fileClass, order) = (header[header.startIndex + 4], header[header.startIndex + 5])
      guard header.starts(with: [0x7F, 0x45, 0x4C, 0x46]), fileClass == 2, order == 1 else {
        throw Defect(found: "a file that is not a 64-bit little-endian ELF object")
      }
      let headerOffset = word(header, 32)
      let entrySize = Int(half(header, 54))
      let count = Int(half(header, 56))
      guard entrySize == 56, count <= maximumProgramHeaders else {
        throw Defect(found: "program headers of an unexpected size or number")
      }
      let table = try bytes(at: headerOffset, count: entrySize * count)
      var loads: [(address: UInt64, offset: UInt64, size: UInt64)] = []
      var dynamic: (offset: UInt64, size: UInt64)?
      for index in 0..<count {
        let base = index * entrySize
        switch word32(table, base) {
        case 1: loads.append((word(table, base + 16), word(table, base + 8), word(table, base + 32)))
        case 2: dynamic = (word(table, base + 8), word(table, base + 32))
        default: break
        }
      }
      guard let dynamic else { return ELFDynamicInfo(needed: [], runPath: []) }
      let entries = min(Int(clamping: dynamic.size / 16), maximumDynamicEntries)
      let section = try bytes(at: dynamic.offset, count: entries * 16)
      var neededOffsets: [UInt64] = []
      var runPathOffset: UInt64?
      var rpathOffset: UInt64?
      var stringTable: UInt64?
      for index in 0..<entries {
        let tag = word(section, index * 16)
        let value = word(section, index * 16 + 8)
        if tag == 0 { break }  // DT_NULL ends the section.
        switch tag {
        case 1: neededOffsets.append(value)
        case 5: stringTable = value
        case 15: rpathOffset = value
        case 29: runPathOffset = value
        default: continue
        }
      }
      guard let stringTable else {
        if neededOffsets.isEmpty && runPathOffset == nil && rpathOffset == nil {
          return ELFDynamicInfo(needed: [], runPath: [])
        }
        throw Defect(found: "a dynamic section without a string table")
      }
      guard
        let segment = loads.first(where: {
          stringTable >= $0.address && stringTable - $0.address < $0.size
        })
      else { throw Defect(found: "a string table outside every loadable segment") }
      let tableOffset = segment.offset &+ (stringTable - segment.address)
      let needed = try neededOffsets.map { offset throws(Defect) in try string(at: tableOffset, offset) }
      let path = try (runPathOffset ?? rpathOffset).map { offset throws(Defect) in
        try string(at: tableOffset, offset)
      }
      let runPath = path.map { $0.split(separator: ":").map(String.init) } ?? []
      return ELFDynamicInfo(needed: needed, runPath: runPath)
    }

    private func string(at table: UInt64, _ offset: UInt64) throws(Defect) -> String {
      let (start, overflow) = table.addingReportingOverflow(offset)
      guard !overflow, start < size else { throw Defect(found: "a name outside the file") }
      // Names are short: the first look is small, so a window of the file
      // holds several; only a longer one is read to the limit.
      let first = try bytes(at: start, count: Int(min(256, size - start)))
      if let end = first.firstIndex(of: 0) { return String(decoding: first[..<end], as: UTF8.self) }
      let chunk = try bytes(at: start, count: Int(min(UInt64(maximumString), size - start)))
      guard let end = chunk.firstIndex(of: 0) else {
        throw Defect(found: "a name longer than \(maximumString) bytes or without its terminating NUL")
      }
      return String(decoding: chunk[..<end], as: UTF8.self)
    }

    // Offsets are relative to the slice's start.
    private func half(_ bytes: ArraySlice<UInt8>, _ offset: Int) -> UInt16 {
      let at = bytes.startIndex + offset
      return UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    private func word32(_ bytes: ArraySlice<UInt8>, _ offset: Int) -> UInt32 {
      let at = bytes.startIndex + offset
      return (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) }
    }

    private func word(_ bytes: ArraySlice<UInt8>, _ offset: Int) -> UInt64 {
      let at = bytes.startIndex + offset
      return (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) }
    }
  }
}
