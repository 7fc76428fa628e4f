import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// `--quiet` prints only errors; with `--verbose` it is a usage error.
@Suite(.blocking) struct QuietOptionTests {
  /// LogWriter's application, with the Keychain plugin's `SecureStore`
  /// registered twice (Keychain, then SecondKeychain): `run` warns of it.
  private func duplicateDeployment(in folder: TemporaryDirectory) throws -> String {
    try folder.writeManifest([
      (name: "Keychain", path: BuildProducts.library("Keychain")),
      (name: "SecondKeychain", path: BuildProducts.library("SecondKeychain")),
      (name: "LogWriter", path: BuildProducts.library("LogWriter")),
    ])
  }

  private static let errorLogLines = [
    "error: LogWriter at error",
    "error: forged\\u{A}\\u{1B}[2Jline",
  ]

  @Test func withoutQuietRunWarnsOfADuplicateRegistration() throws {
    let folder = try TemporaryDirectory()
    let result = try Subprocess.plugboard(["run", "--manifest", try duplicateDeployment(in: folder)])
    #expect(result.status == 0)
    #expect(result.stderrLines.first?.hasPrefix("plugboard: run: warning: ") == true)
    #expect(result.stderrLines.first?.contains("SecureStore") == true)
  }

  /// `-q` is `--quiet`, before the command as after it.
  @Test(arguments: [
    (["run", "--quiet"], []), (["run", "--quiet"], ["--unsupervised"]), (["run", "-q"], []),
    (["-q", "run"], []),
  ])
  func quietSuppressesTheWarningAndKeepsErrors(quiet: [String], extra: [String]) throws {
    let folder = try TemporaryDirectory()
    let result = try Subprocess.plugboard(
      quiet + ["--manifest", try duplicateDeployment(in: folder)] + extra)
    #expect(result.status == 0)
    // The logger's level is raised to error: the application's errors stay.
    #expect(result.stderrLines == Self.errorLogLines)
  }

  @Test func quietStillReportsAFailure() throws {
    let folder = try TemporaryDirectory()
    let manifest = try folder.writeManifest([(name: "Gone", path: folder.path + "/libGone.so")])
    let result = try Subprocess.plugboard(["run", "--quiet", "--manifest", manifest])
    #expect(result.status == PlugboardEngine.ExitStatus.runBroken.rawValue)
    #expect(result.stderrLines.last == "plugboard: the deployment has 1 problem; the application was not run")
  }

  @Test(arguments: [
    ("run", PlugboardEngine.ExitStatus.runMisuse), ("list", PlugboardEngine.ExitStatus.misuse),
    ("check", .misuse), ("graph", .misuse),
  ])
  func quietWithVerboseIsAUsageError(command: String, status: PlugboardEngine.ExitStatus) throws {
    let result = try Subprocess.plugboard([
      command, "--quiet", "--verbose", "--manifest", "/nonexistent.json",
    ])
    #expect(result.status == status.rawValue)
    #expect(
      result.stderrLines == [
        "plugboard: --quiet and --verbose cannot be used together",
        "Run 'plugboard \(command) --help' for usage.",
      ])
  }

  @Test func theOptionsAreInEveryDeploymentCommandsHelp() throws {
    for command in ["run", "list", "check", "explain", "graph"] {
      let help = try Subprocess.plugboard([command, "--help"]).stdout
      #expect(help.contains("--verbose"), "\(command)")
      #expect(help.contains("--quiet"), "\(command)")
      #expect(help.contains("--log-level LEVEL"), "\(command)")
    }
  }
}
