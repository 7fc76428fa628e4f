import Foundation
import Testing

@testable import PlugboardEngine

#if canImport(Glibc)
  import Glibc
#endif

/// ``FileBytes`` serves the ELF parsers from a few kept reads; whatever it
/// keeps, each read must give the file's bytes, cut short only where the
/// file ends. ``PathHandle`` names and describes a file from one
/// descriptor, as `realpath` and `stat` would.
@Suite struct FileBytesTests {
  @Test(arguments: [0, 100, FileBytes.prefixSize - 1, FileBytes.prefixSize + 5, 3 * FileBytes.windowSize])
  func everyReadIsTheFilesBytes(size: Int) throws {
    let folder = try TemporaryDirectory()
    let content = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) }
    let path = folder.path + "/file"
    #expect(FileManager.default.createFile(atPath: path, contents: Data(content)))
    let descriptor = open(path, O_RDONLY)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    let bytes = FileBytes(descriptor: descriptor)
    #expect(bytes.size == UInt64(size))
    let offsets = [
      0, 1, 63, 64, 4095, FileBytes.prefixSize - 10, FileBytes.prefixSize, 20_000, size - 1, size,
    ]
    for offset in offsets where offset >= 0 {
      for count in [1, 64, 4096, FileBytes.windowSize + 1] {
        let expected = content.dropFirst(offset).prefix(count)
        #expect(Array(bytes.read(at: UInt64(offset), count: count)) == Array(expected), "\(offset)+\(count)")
      }
    }
    #expect(bytes.read(at: UInt64(size) + 100, count: 10).isEmpty)
  }

  @Test func aLinkedPathIsNamedByWhereItLeads() throws {
    let folder = try TemporaryDirectory()
    try FileManager.default.createDirectory(atPath: folder.path + "/real", withIntermediateDirectories: false)
    let file = try folder.write("real/lib.so", "bytes")
    try FileManager.default.createSymbolicLink(atPath: folder.path + "/link", withDestinationPath: "real")
    let handle = try #require(PathHandle.open(folder.path + "/link/../real/./lib.so"))
    #expect(handle.canonical == file)
    #expect(handle.canonical == FilePath.canonical(folder.path + "/link/../real/./lib.so"))
    #expect(handle.kind == .regular)
    #expect(handle.status.st_size == 5)
    let reading = try #require(handle.openForReading())
    defer { close(reading) }
    #expect(Array(FileBytes(descriptor: reading).read(at: 0, count: 100)) == Array("bytes".utf8))
  }

  /// A FIFO is described without being opened (opening one for reading
  /// would block until a writer came).
  @Test func aFIFOIsDescribedNotOpened() throws {
    let folder = try TemporaryDirectory()
    #expect(mkfifo(folder.path + "/fifo", 0o600) == 0)
    let handle = try #require(PathHandle.open(folder.path + "/fifo"))
    #expect(handle.kind == .other)
    #expect(handle.openForReading() == nil)
    #expect(PathHandle.open(folder.path + "/missing") == nil)
  }
}

/// ``FilePath/absolute(_:relativeTo:)`` returns a path already in its form
/// unchanged without splitting it; every other path is normalised as before.
@Suite struct AbsolutePathTests {
  @Test(arguments: [
    ("/a/b.so", "/a/b.so"), ("/", "/"), ("b.so", "/base/b.so"), ("./b.so", "/base/b.so"),
    ("/a//b", "/a/b"), ("/a/./b", "/a/b"), ("/a/.", "/a"), ("/a/", "/a"), ("/a/../b", "/a/../b"),
    ("/.hidden/x", "/.hidden/x"), ("/a/.b/..c", "/a/.b/..c"), ("//a", "/a"), ("/.", "/"),
  ])
  func isNormalised(path: String, expected: String) {
    #expect(FilePath.absolute(path, relativeTo: "/base") == expected)
  }
}
