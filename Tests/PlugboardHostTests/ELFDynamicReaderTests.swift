import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

#if canImport(Glibc)
  import Glibc
#endif

/// The loader model's ELF dynamic reader, which the launcher vets the
/// host's libraries with and the engine each plugin's: it reads what the
/// dynamic loader reads, and refuses a file whose dynamic section a reader
/// and the loader could take from different bytes.
@Suite(.blocking) struct ELFDynamicReaderTests {
  /// A copy of a real plugin, and where its program headers lie.
  private struct Library {
    let folder: TemporaryDirectory
    var bytes: [UInt8]
    var path: String { folder.path + "/libCopy.so" }

    init() throws {
      folder = try TemporaryDirectory()
      bytes = [UInt8](try #require(FileManager.default.contents(atPath: BuildProducts.library("Healthy"))))
    }

    func word(_ offset: Int, size: Int = 8) -> UInt64 {
      (0..<size).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
    }

    mutating func set(_ offset: Int, to value: UInt64, size: Int = 8) {
      for index in 0..<size {
        bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))
      }
    }

    /// The offsets of the program headers, 56 bytes each.
    var headers: [Int] {
      let first = Int(word(32))
      return (0..<Int(word(56, size: 2))).map { first + $0 * 56 }
    }

    func header(ofType type: UInt64) -> Int? { headers.first { word($0, size: 4) == type } }

    /// Writes the bytes and reads them as the launcher and the engine do.
    func read() throws -> Result<ELFDynamicInfo, ELFDynamicInfo.Defect> {
      #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
      let descriptor = open(path, O_RDONLY | O_CLOEXEC)
      try #require(descriptor >= 0)
      defer { close(descriptor) }
      return ELFDynamicInfo.read(descriptor)
    }
  }

  /// What `readelf -d` lists of a library: its needed names and run path.
  private static func readelf(_ path: String) throws -> (needed: [String], runPath: [String]) {
    let result = try Subprocess.run("/usr/bin/readelf", ["-dW", path])
    try #require(result.status == 0, "\(result.stderr)")
    func bracketed(_ line: Substring) -> String? {
      guard let open = line.lastIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
      return String(line[line.index(after: open)..<close])
    }
    let lines = result.stdout.split(separator: "\n")
    let needed = lines.filter { $0.contains("(NEEDED)") }.compactMap(bracketed)
    let runPath = lines.first { $0.contains("(RUNPATH)") || $0.contains("(RPATH)") }.flatMap(bracketed)
    return (
      needed,
      runPath.map { $0.split(separator: ":", omittingEmptySubsequences: false).map(String.init) } ?? []
    )
  }

  static let readelfInstalled = FileManager.default.isExecutableFile(atPath: "/usr/bin/readelf")

  @Test(.enabled(if: readelfInstalled, "needs readelf (binutils) to compare with"))
  func readsWhatReadelfReads() throws {
    let library = try Library()
    let expected = try Self.readelf(BuildProducts.library("Healthy"))
    let info = try library.read().get()
    #expect(info.needed == expected.needed)
    #expect(info.runPath == expected.runPath)
    #expect(info.entryVersions == [1])
    #expect(info.writableExecutableSegment == nil)
    #expect(!info.executableStack)
  }

  /// The loader takes the last `PT_DYNAMIC`; a reader taking the first
  /// would vet needs the loader never reads.
  @Test func aSecondDynamicSectionIsRefused() throws {
    var library = try Library()
    let note = try #require(library.header(ofType: 4))  // PT_NOTE
    library.set(note, to: 2, size: 4)
    #expect(try library.read() == .failure(ELFDynamicInfo.Defect(found: "more than one dynamic section")))
  }

  /// The loader reads the dynamic section from memory, where a loadable
  /// segment maps its address; a header pointing elsewhere in the file
  /// would show a reader other entries.
  @Test func aDynamicSectionAwayFromWhereItIsLoadedIsRefused() throws {
    var library = try Library()
    let dynamic = try #require(library.header(ofType: 2))
    library.set(dynamic + 8, to: library.word(dynamic + 8) - 16)
    #expect(
      try library.read()
        == .failure(ELFDynamicInfo.Defect(found: "a dynamic section that is not where it is loaded"))
    )
  }
}
