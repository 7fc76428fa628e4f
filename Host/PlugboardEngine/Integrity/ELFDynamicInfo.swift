#if canImport(Glibc)
  import Glibc
#endif

/// The parts of a 64-bit little-endian ELF shared object's dynamic section
/// that decide where its dependencies are looked for: `DT_NEEDED` and the
/// run path (`DT_RUNPATH`, or the older `DT_RPATH`). Read with `pread`
/// from a descriptor, every offset and size checked against the file, so
/// a hostile file costs bounded time and memory.
///
/// It also reads what must be refused before `dlopen` runs anything of the
/// file (see ``UnsafeLibrary``): the program headers' permissions,
/// `DT_FLAGS_1`, and which `plugboard_entry_v*` symbols its dynamic symbol
/// table defines.
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
  /// The prefix of the C entry symbol of every plugin ABI.
  static let entryPrefix = Array("plugboard_entry_v".utf8)

  /// A malformed or unsupported file, said as "found …".
  struct Defect: Error, Equatable {
    let found: String
  }

  private static let maximumProgramHeaders = 4096
  private static let maximumDynamicEntries = 16384
  private static let maximumString = 4096
  /// Bounds on the dynamic symbol table read to find the entry symbols: a
  /// real plugin has thousands of symbols; a hostile file costs at most
  /// these reads.
  private static let maximumSymbols = 1 << 20
  private static let maximumStringTable = 64 << 20
  private static let maximumHashBuckets = 1 << 20

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
      var (segments, result) = try programHeaders()
      guard let dynamic = segments.dynamic else { return result }
      var entries = try dynamicEntries(dynamic)
      result.flags1 = entries.flags1
      guard let stringTable = entries.stringTable else {
        if entries.neededOffsets.isEmpty && entries.runPathOffset == nil { return result }
        throw Defect(found: "a dynamic section without a string table")
      }
      guard let tableOffset = segments.fileOffset(stringTable) else {
        throw Defect(found: "a string table outside every loadable segment")
      }
      let needed = try entries.neededOffsets.map { offset throws(Defect) in
        try string(at: tableOffset, offset)
      }
      let path = try entries.runPathOffset.map { offset throws(Defect) in try string(at: tableOffset, offset)
      }
      // Empty entries kept: the loader takes one as the current directory.
      let runPath =
        path.map { $0.split(separator: ":", omittingEmptySubsequences: false).map(String.init) } ?? []
      entries.tables.strings = tableOffset
      entries.tables.symbols = entries.tables.symbols.flatMap(segments.fileOffset)
      entries.tables.hash = entries.tables.hash.flatMap(segments.fileOffset)
      entries.tables.gnuHash = entries.tables.gnuHash.flatMap(segments.fileOffset)
      return ELFDynamicInfo(
        needed: needed, runPath: runPath, executableStack: result.executableStack,
        writableExecutableSegment: result.writableExecutableSegment, flags1: result.flags1,
        entryVersions: try? entryVersions(in: entries.tables))
    }

    /// Where the loadable segments and the dynamic section lie.
    struct Segments {
      var loads: [(address: UInt64, offset: UInt64, size: UInt64)] = []
      var dynamic: (offset: UInt64, size: UInt64)?

      /// The file offset of a virtual address inside a loadable segment.
      func fileOffset(_ address: UInt64) -> UInt64? {
        loads.first { address >= $0.address && address - $0.address < $0.size }
          .map { $0.offset &+ (address - $0.address) }
      }
    }

    /// The ELF header checked, then the program headers: the segments, and
    /// what they say of the stack and of writable code.
    private func programHeaders() throws(Defect) -> (Segments, ELFDynamicInfo) {
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
      var segments = Segments()
      var result = ELFDynamicInfo(needed: [], runPath: [])
      for index in 0..<count {
        let base = index * entrySize
        let flags = word32(table, base + 4)  // PF_X 1, PF_W 2, PF_R 4
        switch word32(table, base) {
        case 1:
          segments.loads.append((word(table, base + 16), word(table, base + 8), word(table, base + 32)))
          if flags & 3 == 3, result.writableExecutableSegment == nil {
            result.writableExecutableSegment = index
          }
        case 2: segments.dynamic = (word(table, base + 8), word(table, base + 32))
        case 0x6474_E551: result.executableStack = flags & 1 != 0  // PT_GNU_STACK
        default: break
        }
      }
      return (segments, result)
    }

    /// What the dynamic section's entries point at, as virtual addresses
    /// or string offsets.
    struct DynamicEntries {
      var neededOffsets: [UInt64] = []
      /// `DT_RUNPATH`'s, else the older `DT_RPATH`'s.
      var runPathOffset: UInt64?
      var stringTable: UInt64?
      var flags1: UInt64 = 0
      var tables = SymbolTables()
    }

    /// The dynamic section's entries up to `DT_NULL`, at most
    /// ``maximumDynamicEntries`` of them.
    private func dynamicEntries(_ dynamic: (offset: UInt64, size: UInt64)) throws(Defect) -> DynamicEntries {
      let count = min(Int(clamping: dynamic.size / 16), maximumDynamicEntries)
      let section = try bytes(at: dynamic.offset, count: count * 16)
      var entries = DynamicEntries()
      var (runPath, rpath): (UInt64?, UInt64?) = (nil, nil)
      for index in 0..<count {
        let tag = word(section, index * 16)
        let value = word(section, index * 16 + 8)
        if tag == 0 { break }  // DT_NULL ends the section.
        switch tag {
        case 1: entries.neededOffsets.append(value)
        case 4: entries.tables.hash = value
        case 5: entries.stringTable = value
        case 6: entries.tables.symbols = value
        case 10: entries.tables.stringsSize = value
        case 15: rpath = value
        case 29: runPath = value
        case 0x6FFF_FEF5: entries.tables.gnuHash = value
        case 0x6FFF_FFFB: entries.flags1 = value
        default: continue
        }
      }
      entries.runPathOffset = runPath ?? rpath
      return entries
    }

    /// Where the dynamic symbol table and what sizes it lie in the file.
    struct SymbolTables {
      var symbols: UInt64?
      var strings: UInt64?
      var stringsSize: UInt64?
      var hash: UInt64?
      var gnuHash: UInt64?
    }

    /// The `N` of every defined `plugboard_entry_vN` of the dynamic symbol
    /// table: the table and its strings read once each, bounded.
    private func entryVersions(in tables: SymbolTables) throws(Defect) -> [UInt32] {
      guard let symbols = tables.symbols, let strings = tables.strings, let stringsSize = tables.stringsSize,
        stringsSize <= UInt64(maximumStringTable)
      else { throw Defect(found: "no dynamic symbol table that can be read") }
      let count = try symbolCount(tables)
      guard count <= maximumSymbols else {
        throw Defect(found: "more than \(maximumSymbols) dynamic symbols")
      }
      let table = try bytes(at: symbols, count: count * 24)
      let names = try bytes(at: strings, count: Int(stringsSize))
      let prefix = ELFDynamicInfo.entryPrefix
      var versions: [UInt32] = []
      for index in 0..<count {
        let base = index * 24
        // A symbol the library only refers to is not one it exports.
        guard half(table, base + 6) != 0 else { continue }
        let name = Int(word32(table, base))
        guard name < names.count, names.count - name > prefix.count else { continue }
        let start = names.startIndex + name
        guard names[start..<start + prefix.count].elementsEqual(prefix) else { continue }
        var version: UInt32 = 0
        var position = start + prefix.count
        var digits = 0
        while position < names.endIndex, (0x30...0x39).contains(names[position]), digits < 9 {
          version = version * 10 + UInt32(names[position] - 0x30)
          position += 1
          digits += 1
        }
        if digits > 0, position < names.endIndex, names[position] == 0 { versions.append(version) }
      }
      return versions
    }

    /// How many symbols the dynamic symbol table holds: `DT_HASH`'s chain
    /// count, or past the last chain of `DT_GNU_HASH` (which has no count).
    private func symbolCount(_ tables: SymbolTables) throws(Defect) -> Int {
      if let hash = tables.hash {
        return Int(word32(try bytes(at: hash, count: 8), 4))
      }
      guard let gnuHash = tables.gnuHash else { throw Defect(found: "no symbol hash table") }
      let header = try bytes(at: gnuHash, count: 16)
      let (buckets, first, bloomWords) = (
        Int(word32(header, 0)), Int(word32(header, 4)), Int(word32(header, 8))
      )
      guard buckets <= maximumHashBuckets, bloomWords <= maximumHashBuckets else {
        throw Defect(found: "a symbol hash table of an unexpected size")
      }
      let bucketsOffset = gnuHash + 16 + UInt64(bloomWords) * 8
      let bucketTable = try bytes(at: bucketsOffset, count: buckets * 4)
      let last = (0..<buckets).reduce(0) { max($0, Int(word32(bucketTable, $1 * 4))) }
      guard last >= first else { return first }
      // The chain of the last bucket ends at the table's last symbol, the
      // one whose chain word has its low bit set.
      let chains = bucketsOffset + UInt64(buckets) * 4
      var index = last
      while index < maximumSymbols {
        let chain = try bytes(at: chains + UInt64(index - first) * 4, count: 4)
        if word32(chain, 0) & 1 != 0 { return index + 1 }
        index += 1
      }
      throw Defect(found: "a symbol hash chain that does not end")
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
