import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardCLI
@testable import PlugboardEngine

/// The exit statuses the documentation quotes are the program's: each
/// quote in the Markdown (`exit status 78`, `exits 1`, `` `run`: 64 ``,
/// the tables of Docs/commands.md) is compared with the `ExitStatus` it
/// means, and each command's `--help` ends with the statuses it can end
/// with. A new quote fails until it is added here with its meaning, so no
/// number in the docs goes unchecked.
@Suite(.blocking) struct DocsExitStatusTests {
  private typealias ExitStatus = PlugboardEngine.ExitStatus

  private static let documents =
    ["README.md", "SECURITY.md"]
    + ((try? FileManager.default.contentsOfDirectory(atPath: BuildProducts.packageRoot + "/Docs")) ?? [])
    .filter { $0.hasSuffix(".md") }.sorted().map { "Docs/" + $0 }

  /// Each quote, by its document and the four words before the number, and
  /// the status the program ends with in that case.
  private static let meanings: [String: Int32] = [
    "Docs/checking.md: It exits with status": ExitStatus.of(.problems, command: "check"),
    "Docs/checking.md: reports Errors (exit status": ExitStatus.of(.problems, command: "check"),
    "Docs/checking.md: are). Warnings (exit status": ExitStatus.healthy.rawValue,
    "Docs/checking.md: is misuse (exit status": ExitStatus.of(.misuse, command: "check"),
    "Docs/checking.md: (exit status 2; `run`:": ExitStatus.of(.misuse, command: "run"),
    "Docs/checking.md: other: `check` exits with": ExitStatus.of(.problems, command: "check"),
    "Docs/checking.md: JSON), and exits with": ExitStatus.crashed(command: "check"),
    "Docs/embedding.md: throws `RunFailure.startFailed` (exit status": ExitStatus.runStartFailed.rawValue,
    "Docs/feedback.md: usage error (exit status": ExitStatus.of(.misuse, command: "run"),
    "Docs/lifecycle.md: `run` exits with **": ExitStatus.runStartFailed.rawValue,
    "Docs/operating.md: (optional)`, with exit status": ExitStatus.healthy.rawValue,
    "Docs/operating.md: is broken (exit status": ExitStatus.runBroken.rawValue,
    "Docs/operating.md: SIGILL … (exit status": ExitStatus.runCrashed.rawValue,
    "Docs/operating.md: hook failed (exit status": ExitStatus.runStartFailed.rawValue,
    "Docs/manifest.md: writes nothing and exits": ExitStatus.of(.problems, command: "pin"),
    "Docs/commands.md: is misuse (exit status": ExitStatus.misuse.rawValue,
    "Docs/commands.md: fail. Misuse (exit status": ExitStatus.misuse.rawValue,
    "Docs/commands.md: | `new` ends with": ExitStatus.healthy.rawValue,
    "Docs/commands.md: so `run` ends with": ExitStatus.of(.problems, command: "run"),
    "Docs/profiles.md: is misuse (exit status": ExitStatus.of(.misuse, command: "list"),
    "Docs/profiles.md: (exit status 2; `run`:": ExitStatus.of(.misuse, command: "run"),
    "Docs/profiles.md: the deployment (exit status": ExitStatus.of(.problems, command: "list"),
    "Docs/profiles.md: (exit status 1; `run`:": ExitStatus.of(.problems, command: "run"),
    "Docs/shipping.md: with problems (exit status": ExitStatus.of(.problems, command: "run"),
    "Docs/shipping.md: and exits with status": ExitStatus.of(.problems, command: "verify"),
    "Docs/commands.md: for. `verify` ends with": ExitStatus.healthy.rawValue,
    "Docs/shipping.md: same problems (exit status": ExitStatus.of(.problems, command: "list"),
    "SECURITY.md: to it; exit status": ExitStatus.crashed(command: "run"),
  ]

  /// `exit status N`, `exits with N` (or `**N**`), `exits N`, `ends with N`, `(exit N`,
  /// `` `run`: N ``; not `128 + N`, which is a signal's.
  private static var quote: Regex<(Substring, Substring)> {
    #/(?:exit status|exits with status|exits with|exits|ends with|\(exit|`run`:)\s+\**(\d+)\b(?!\s*\+)/#
  }

  /// Every quote of the documents, as its key in ``meanings`` and the number.
  private func quotes() throws -> [(key: String, number: Int32)] {
    var found: [(String, Int32)] = []
    for document in Self.documents {
      let text = try String(contentsOfFile: BuildProducts.packageRoot + "/" + document, encoding: .utf8)
      let flat = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      for match in flat.matches(of: Self.quote) {
        let words = flat[..<match.output.1.startIndex].split(separator: " ").suffix(4).joined(separator: " ")
        found.append(("\(document): \(words)", Int32(match.output.1) ?? -1))
      }
    }
    return found
  }

  @Test func everyQuotedStatusIsTheProgramsOwn() throws {
    let quotes = try quotes()
    #expect(!quotes.isEmpty)
    for (key, number) in quotes {
      guard let meaning = Self.meanings[key] else {
        Issue.record(
          "the docs quote an exit status this test does not know; add it with its meaning: \"\(key)\" (\(number))"
        )
        continue
      }
      #expect(number == meaning, "\(key) \(number): the program ends with \(meaning)")
    }
    let quoted = Set(quotes.map(\.key))
    for key in Self.meanings.keys where !quoted.contains(key) {
      Issue.record("no longer quoted in the docs: \"\(key)\"; remove it here")
    }
  }

  /// The two tables of "Exit status" in Docs/commands.md list exactly the
  /// statuses plugboard ends with (beside an application's own).
  @Test func theExitStatusTablesAreTheProgramsStatuses() throws {
    let text = try String(contentsOfFile: BuildProducts.packageRoot + "/Docs/commands.md", encoding: .utf8)
    let section = try #require(text.components(separatedBy: "## Exit status").last)
    let rows = section.split(separator: "\n").compactMap { line -> Int32? in
      guard let match = line.firstMatch(of: #/^\| (\d+) \|/#) else { return nil }
      return Int32(match.output.1)
    }
    let reporting: [ExitStatus] = [.healthy, .problems, .misuse]
    let run: [ExitStatus] = [.runMisuse, .runStartFailed, .runCrashed, .runBroken]
    #expect(rows == reporting.map(\.rawValue) + [ExitStatus.problems.rawValue] + run.map(\.rawValue))
  }

  /// Each command's `--help` ends with the statuses it can end with: no
  /// deployment's for `new` and `completion`, which read none.
  @Test(arguments: [
    ("new", HelpText.newStatuses), ("completion", HelpText.completionStatuses), ("run", HelpText.runStatuses),
    ("check", HelpText.reportingStatuses), ("pin", HelpText.reportingStatuses),
    ("verify", HelpText.verifyStatuses),
  ])
  func eachHelpEndsWithItsOwnStatuses(command: String, statuses: String) throws {
    let help = try Subprocess.plugboard([command, "--help"])
    #expect(help.status == 0)
    #expect(help.stdout.hasSuffix("\n\n" + statuses + "\n"))
    if ["new", "completion", "verify"].contains(command) { #expect(!statuses.contains("deployment")) }
  }
}
