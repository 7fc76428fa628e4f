import Foundation
import PlugboardKit
import PlugboardStamping
import Testing

/// The fingerprint in `PlugboardBuild.kitVersion` is the stamp of the
/// PlugboardKit sources it was built from (written by the PlugboardStamp
/// build plugin), so a plugin built against other declarations is refused
/// while one built before a change of comments or layout still loads.
@Suite struct SourceFingerprintTests {
  static let sources = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Kit/Sources").path

  /// PlugboardKit's files as the build plugin stamps them: the Swift
  /// module and its C target, paths relative to `Kit/Sources`.
  static func kitFiles() throws -> [InterfaceStamp.SourceFile] {
    try ["PlugboardKit", "PlugboardABI"].flatMap { module in
      try FileManager.default.subpathsOfDirectory(atPath: sources + "/" + module)
        .filter { $0.hasSuffix(".swift") || $0.hasSuffix(".c") || $0.hasSuffix(".h") }
        .map { path in
          InterfaceStamp.SourceFile(
            path: module + "/" + path,
            text: try String(contentsOfFile: sources + "/" + module + "/" + path, encoding: .utf8))
        }
    }
  }

  @Test func theFingerprintIsTheStampOfTheSources() throws {
    #expect(PlugboardBuild.sourceFingerprint == InterfaceStamp.of(try Self.kitFiles()))
    #expect(PlugboardBuild.kitVersion == "\(PlugboardBuild.kitRelease)+\(PlugboardBuild.sourceFingerprint)")
    #expect(PlugboardBuild.loadedKitVersion == PlugboardBuild.kitVersion)
  }

  @Test func commentsAndLayoutLeaveTheFingerprintAlone() throws {
    let files = try Self.kitFiles()
    let reformatted = files.map { file in
      InterfaceStamp.SourceFile(
        path: file.path,
        text: "// A new first line.\n/** A doc comment. */\n"
          + file.text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            // Before declarations, which no string literal of Kit's starts a line with.
            line.hasPrefix("public ") ? "\n/* a comment /* nested */ */\n\t" + line : String(line)
          }.joined(separator: "\n") + "\n// The end.\n")
    }
    #expect(InterfaceStamp.of(reformatted) == PlugboardBuild.sourceFingerprint)
  }

  @Test func aNewDeclarationChangesTheFingerprint() throws {
    var files = try Self.kitFiles()
    files.append(InterfaceStamp.SourceFile(path: "PlugboardKit/New.swift", text: "public struct New {}"))
    #expect(InterfaceStamp.of(files) != PlugboardBuild.sourceFingerprint)
  }
}
