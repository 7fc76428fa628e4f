import Foundation
import PlugboardTestSupport
import Testing

/// `Scripts/check-reference-texts`, which `.ci/run` runs over the shipped
/// texts, run on planted files: every kind of log-like phrase is found
/// and named by file and line, and the look-alikes a reference needs
/// (a contracts stamp, a shortened digest, a fuzzer's seed corpus) pass.
@Suite(.blocking) struct ReferenceTextsCheckTests {
  static let script = BuildProducts.packageRoot + "/Scripts/check-reference-texts"

  private func check(_ paths: [String]) throws -> ProcessResult {
    try Subprocess.run(Self.script, paths)
  }

  /// `folder` with the subfolders `names`.
  private func folder(with names: [String]) throws -> TemporaryDirectory {
    let folder = try TemporaryDirectory()
    for name in names {
      try FileManager.default.createDirectory(
        atPath: folder.path + "/" + name, withIntermediateDirectories: true)
    }
    return folder
  }

  /// Spelt in pieces, so that this file holds none of what it plants.
  private static let hash = "24506" + "ca"
  private static let title = "\u{C758}\u{C874}\u{C131} \u{C8FC}\u{C785}"

  @Test func everyKindOfLogPhraseIsNamedByFileAndLine() throws {
    let folder = try folder(with: ["Docs"])
    let writeUp = "004_" + "f1a927a1" + "d3eb5fd1" + ".txt"
    let lines = [
      "# A page",
      "",
      "Measured at `\(Self.hash)` on a quiet machine.",
      "The singleton takes 11 ns now (12 before).",
      "The parent blames by stage, as before.",
      "Seeds 001 and 003 register an instance.",
      "See ../shared/seeds/ for the patterns.",
      "As the field notes say, mocks are chosen by configuration.",
      "Cited from \(writeUp), \"\(Self.title)\".",
    ]
    let planted = try folder.write("Docs/planted.md", lines.joined(separator: "\n") + "\n")
    let result = try check([folder.path + "/Docs"])
    #expect(result.status == 1)
    let citation = "a citation of the field write-ups"
    let found: [(line: Int, label: String)] = [
      (3, "a commit hash"),
      (4, #"a before-and-after ("now (")"#),
      (5, #"a before-and-after ("as before")"#),
      (6, citation + " (their folder)"),
      (7, citation + " (their folder)"),
      (9, citation + " (a file name)"),
      (8, citation + #" ("field notes")"#),
      (9, citation + " (a Korean title)"),
    ]
    let expected = found.map { "\(planted):\($0.line): \($0.label): \(lines[$0.line - 1])\n" }
    #expect(result.stdout == expected.joined())
    let advice = "state what holds and why; the story of a change goes in its commit message"
    #expect(result.stderr == "check-reference-texts: \(advice)\n")
  }

  /// What a reference may say: a stamp (16 hex digits), a digest shortened
  /// in an example, a hex alphabet, a fuzzer's seeds, a word before a
  /// parenthesis, a build folder's output.
  @Test func theLookAlikesOfAReferencePass() throws {
    let folder = try folder(with: ["Kit/.build/debug"])
    _ = try folder.write(
      "Kit/clean.swift",
      """
      /// Compiled against AppContracts 1343ea0ae196d117, not 9f86d081….
      let digits = Array("0123456789abcdef".utf8)
      /// New inputs go to the corpus; the seeds in Tests/Fuzz stay.
      /// Known (and documented) limits; before the fork, as the parent does.

      """)
    _ = try folder.write("Kit/.build/debug/out.txt", "at \(Self.hash), now (1)\n")
    let result = try check([folder.path + "/Kit"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.isEmpty)
  }

  @Test func aMissingPathIsMisuse() throws {
    let folder = try TemporaryDirectory()
    let result = try check([folder.path + "/absent"])
    #expect(result.status == 2)
    #expect(result.stderr == "check-reference-texts: \(folder.path)/absent: no such file or folder\n")
  }
}
