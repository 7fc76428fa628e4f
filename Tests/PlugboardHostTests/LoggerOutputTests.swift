import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// plugboard's default `Logger`: its level from `--log-level`,
/// `PLUGBOARD_LOG_LEVEL` and the manifest's `logLevel`, its sanitised
/// lines, and its replacement by a plugin.
@Suite(.blocking) struct LoggerOutputTests {
  private func logWriter(in folder: TemporaryDirectory, logLevel: String? = nil, ownLogger: Bool = false)
    throws -> String
  {
    var plugins = [(name: "LogWriter", path: BuildProducts.library("LogWriter"))]
    if ownLogger { plugins.append((name: "OwnLogger", path: BuildProducts.library("OwnLogger"))) }
    let manifest = try folder.writeManifest(plugins)
    guard let logLevel else { return manifest }
    let text = try String(contentsOfFile: manifest, encoding: .utf8)
      .replacingOccurrences(
        of: "\"formatVersion\": 1,", with: "\"formatVersion\": 1, \"logLevel\": \(logLevel),")
    return try folder.write("plugins.json", text)
  }

  /// What LogWriter logs from `level` up.
  private static func lines(from level: String) -> [String] {
    let levels = ["trace", "debug", "info", "notice", "warning", "error"]
    let shown = levels.drop { $0 != level }
    return shown.map { "\($0): LogWriter at \($0)" } + ["error: forged\\u{A}\\u{1B}[2Jline"]
  }

  @Test func theDefaultLevelIsNoticeAndControlCharactersAreEscaped() throws {
    let folder = try TemporaryDirectory()
    let result = try Subprocess.plugboard(["run", "--manifest", try logWriter(in: folder)])
    #expect(result.status == 0)
    #expect(result.stderrLines == Self.lines(from: "notice"))
  }

  @Test func theFlagBeatsTheEnvironmentWhichBeatsTheManifest() throws {
    let folder = try TemporaryDirectory()
    let manifest = try logWriter(in: folder, logLevel: #""error""#)
    let fromManifest = try Subprocess.plugboard(["run", "--manifest", manifest])
    #expect(fromManifest.stderrLines == Self.lines(from: "error"))
    let environment = ["PLUGBOARD_LOG_LEVEL": "warning"]
    let fromEnvironment = try Subprocess.plugboard(["run", "--manifest", manifest], environment: environment)
    #expect(fromEnvironment.stderrLines == Self.lines(from: "warning"))
    let fromFlag = try Subprocess.plugboard(
      ["run", "--log-level", "trace", "--manifest", manifest], environment: environment)
    #expect(fromFlag.stderrLines == Self.lines(from: "trace"))
  }

  @Test func verboseLowersTheLevelToDebug() throws {
    let folder = try TemporaryDirectory()
    let result = try Subprocess.plugboard(["run", "--verbose", "--manifest", try logWriter(in: folder)])
    let logged = result.stderrLines.filter { !$0.hasPrefix("plugboard: ") }
    #expect(logged == Self.lines(from: "debug"))
  }

  @Test func aMisspeltLevelIsAUsageError() throws {
    let folder = try TemporaryDirectory()
    let manifest = try logWriter(in: folder)
    let flag = try Subprocess.plugboard(["run", "--log-level", "warnnig", "--manifest", manifest])
    #expect(flag.status == PlugboardEngine.ExitStatus.runMisuse.rawValue)
    #expect(
      flag.stderrLines == [
        "plugboard: --log-level takes trace, debug, info, notice, warning or error, found 'warnnig'; "
          + "did you mean 'warning'?",
        "Run 'plugboard run --help' for usage.",
      ])
    let environment = try Subprocess.plugboard(
      ["list", "--manifest", manifest], environment: ["PLUGBOARD_LOG_LEVEL": "loud"])
    #expect(environment.status == PlugboardEngine.ExitStatus.misuse.rawValue)
    #expect(
      environment.stderrLines.first
        == "plugboard: PLUGBOARD_LOG_LEVEL takes trace, debug, info, notice, warning or error, found 'loud'")
  }

  @Test func aManifestLevelMustBeOneOfTheLevels() throws {
    let folder = try TemporaryDirectory()
    let result = try Subprocess.plugboard(
      ["list", "--manifest", try logWriter(in: folder, logLevel: #""verbose""#)])
    #expect(result.status == 1)
    #expect(
      result.stderr.contains(
        #"logLevel: expected trace, debug, info, notice, warning or error, found "verbose""#))
    let number = try Subprocess.plugboard(["list", "--manifest", try logWriter(in: folder, logLevel: "3")])
    #expect(
      number.stderr.contains("logLevel: expected a string (trace, debug, info, notice, warning or error)"))
  }

  @Test func aPluginsLoggerReplacesTheDefault() throws {
    let folder = try TemporaryDirectory()
    let manifest = try logWriter(in: folder, ownLogger: true)
    let run = try Subprocess.plugboard(["run", "--manifest", manifest])
    #expect(run.status == 0)
    // OwnLogger writes every level; the duplicate "logTag" is LogWriter's and OwnLogger's.
    #expect(
      run.stderrLines.filter { !$0.hasPrefix("plugboard: ") }
        == ["trace", "debug", "info", "notice", "warning", "error"].map {
          "\($0): own logger: LogWriter at \($0)"
        }
        + ["error: own logger: forged\\u{A}\\u{1B}[2Jline"])
    let list = try Subprocess.plugboard(["list", "--manifest", manifest])
    #expect(list.stdout.contains("\nLogger: plugin 'OwnLogger' (OwnLogger/OwnLoggerPlugin.swift:"))
    #expect(list.stdout.contains("), replacing plugboard's default\n"))
    let explain = try Subprocess.plugboard(["explain", "Logger", "--manifest", manifest])
    #expect(explain.stdout.contains("Chosen:\n  Logger  (registered at OwnLogger/OwnLoggerPlugin.swift:"))
    #expect(
      explain.stdout.contains(
        "  - Logger at PlugboardEngine/DefaultLogger.swift:18: replaced by the later registration at "
          + "OwnLogger/OwnLoggerPlugin.swift:"))
  }

  /// Without a plugin's logger, the table says nothing more (it would on
  /// every deployment); `--json` and `explain` name plugboard's default.
  @Test func theDefaultLoggerIsNamedByJSONAndExplain() throws {
    let folder = try TemporaryDirectory()
    let manifest = try logWriter(in: folder)
    #expect(try !Subprocess.plugboard(["list", "--manifest", manifest]).stdout.contains("Logger:"))
    let json = try Subprocess.plugboard(["list", "--json", "--manifest", manifest]).stdout
    #expect(
      json.contains(
        "\"logger\" : {\n    \"file\" : \"PlugboardEngine/DefaultLogger.swift\",\n    \"line\" : 18\n  }"))
    let explain = try Subprocess.plugboard(["explain", "Logger", "--manifest", manifest])
    #expect(
      explain.stdout.contains("Chosen:\n  Logger  (registered at PlugboardEngine/DefaultLogger.swift:18)\n"))
  }

  @Test func replacingTheDefaultIsNoDuplicateRegistration() throws {
    let folder = try TemporaryDirectory()
    let check = try Subprocess.plugboard(["check", "--manifest", try logWriter(in: folder, ownLogger: true)])
    #expect(!check.stdout.contains("Logger is registered"))
    // The other duplicate is still reported.
    #expect(
      check.stdout.contains("String named \"logTag\" is registered by plugins 'LogWriter' and 'OwnLogger'"))
  }
}
