import Foundation

@testable import PlugboardEngine

/// A copy of a plugin as it would be shipped to a machine without the
/// toolchain: SwiftPM links every library with the run path
/// `<toolchain>/usr/lib/swift/linux:$ORIGIN`, which on the build machine
/// still reaches the toolchain's runtime, so the copy's run path is cut to
/// `$ORIGIN` (its own folder) and nothing it needs can come from there.
enum ShippedPlugin {
  /// Copies `library` to `destination` and cuts its run path to `wanted`
  /// (`$ORIGIN` unless told), in place: the new string overwrites the old
  /// one, padded with NULs (what `Scripts/install-host` does to
  /// `plugboard`). Fails when the library has no run path at least as long
  /// as `wanted`, or its run path is not
  /// found exactly once in the file as a whole NUL-terminated string, or the
  /// engine's ELF reader then reads another.
  static func copy(_ library: String, to destination: String, runPath wanted: String = "$ORIGIN") throws {
    let before = try runPath(library)
    let old = Array(before.joined(separator: ":").utf8) + [0]
    let new = Array(wanted.utf8)
    guard old.count >= new.count + 1 else {
      throw FixtureFailure(description: "\(library) has no run path as long as \(wanted) to cut: \(before)")
    }
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: library)))
    let starts = bytes.indices.dropLast(old.count - 1).filter { start in
      (start == 0 || bytes[start - 1] == 0) && bytes[start..<start + old.count].elementsEqual(old)
    }
    guard starts.count == 1, let start = starts.first else {
      throw FixtureFailure(description: "\(library): found its run path \(starts.count) times; expected once")
    }
    bytes.replaceSubrange(
      start..<start + old.count, with: new + [UInt8](repeating: 0, count: old.count - new.count))
    try Data(bytes).write(to: URL(fileURLWithPath: destination))
    let after = try runPath(destination)
    guard after == wanted.split(separator: ":", omittingEmptySubsequences: false).map(String.init) else {
      throw FixtureFailure(description: "\(destination): its run path is \(after) after the cut")
    }
  }

  /// The run path of `library`, as the engine's loader reads it.
  static func runPath(_ library: String) throws -> [String] {
    let descriptor = open(library, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw FixtureFailure(description: "cannot open \(library)") }
    defer { close(descriptor) }
    switch ELFDynamicInfo.read(descriptor) {
    case .success(let info): return info.runPath
    case .failure(let defect): throw FixtureFailure(description: "\(library): found \(defect.found)")
    }
  }
}
