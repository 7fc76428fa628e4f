import Foundation
import PlugboardKit
import Testing

/// The fingerprint in `PlugboardBuild.kitVersion` must be the hash of the
/// PlugboardKit sources it was built from, or a plugin built against other
/// sources would pass the host's version check and crash it.
@Suite struct SourceFingerprintTests {
  @Test func theRecordedFingerprintMatchesTheSources() throws {
    let sources = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Kit/Sources")
    let fingerprint = try Self.fingerprint(of: sources)
    #expect(
      PlugboardBuild.sourceFingerprint == fingerprint,
      """
      PlugboardKit's sources changed: run Scripts/kit-fingerprint --write (it records \
      \(fingerprint)), so plugins built against the old sources are refused
      """)
    #expect(PlugboardBuild.kitVersion == "\(PlugboardBuild.kitRelease)+\(fingerprint)")
    #expect(PlugboardBuild.loadedKitVersion == PlugboardBuild.kitVersion)
  }

  /// FNV-1a 64 over every file in sorted relative-path order (path, NUL,
  /// bytes, NUL), leaving out the file that records the result; the same
  /// as Scripts/kit-fingerprint.
  static func fingerprint(of sources: URL) throws -> String {
    let record = "PlugboardKit/Plugin/KitSourceFingerprint.swift"
    guard let walker = FileManager.default.enumerator(atPath: sources.path) else {
      throw CocoaError(.fileReadNoSuchFile)
    }
    var paths: [String] = []
    while let path = walker.nextObject() as? String {
      var isDirectory: ObjCBool = false
      let full = sources.appendingPathComponent(path).path
      if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue,
        path != record
      {
        paths.append(path)
      }
    }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    func add(_ bytes: some Sequence<UInt8>) {
      for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    }
    for path in paths.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
      add(Array(path.utf8) + [0])
      add(try Data(contentsOf: sources.appendingPathComponent(path)) + [0])
    }
    return String(hash, radix: 16).leftPadded(to: 16)
  }
}

extension String {
  fileprivate func leftPadded(to length: Int) -> String {
    String(repeating: "0", count: max(0, length - count)) + self
  }
}
