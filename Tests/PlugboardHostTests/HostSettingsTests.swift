import PlugboardKit
import Synchronization
import Testing

@testable import PlugboardCLI
@testable import PlugboardEngine

/// The host's settings reach the engine as a value, beside the session:
/// what the command line chose goes into the value the command hands
/// down, and two deployments brought up in one process with different
/// settings each keep their own.
@Suite struct HostSettingsTests {
  private func level(_ settings: HostSettings) throws -> LogLevel {
    let manifest = try ManifestReader.decode(
      Array(#"{"formatVersion": 1, "pluginRoots": ["/nonexistent"], "plugins": []}"#.utf8),
      path: "/virtual/plugins.json"
    ).get()
    let deployment = Deployment.bringUp(
      manifest, loader: PluginLoader(progress: ChildSession()), settings: settings)
    return try deployment.container.resolve((any Logger).self).minimumLevel
  }

  @Test func eachDeploymentTakesTheSettingsItIsBroughtUpWith() throws {
    #expect(try level(HostSettings(logLevel: .debug)) == .debug)
    #expect(try level(HostSettings(verbosity: .quiet)) == .error)
    #expect(try level(HostSettings(verbosity: .verbose, logLevel: .warning)) == .debug)
    #expect(try level(HostSettings()) == .notice)
  }

  @Test func theCommandLineChoosesTheSettingsTheCommandHandsDown() throws {
    let parsed = try InvocationParser.parse(["check", "--quiet", "--log-level", "trace"])
    guard case .command(let name, let options) = parsed else {
      Issue.record("not a command: \(parsed)")
      return
    }
    let given = HostSettings(hidesProcessHoldingSecrets: true)
    let chosen = try Plugboard.prepareFeedback(
      options, command: name, progress: ChildSession(), settings: given
    )
    .get()
    #expect(chosen == HostSettings(verbosity: .quiet, logLevel: .trace, hidesProcessHoldingSecrets: true))
  }

  @Test func aQuietConsoleKeepsErrorsAndOutputOnly() {
    let captured = CapturedConsole()
    let quiet = QuietConsole(captured)
    quiet.out("report")
    quiet.warn("plugboard: run: warning: w")
    quiet.info("plugboard: i")
    quiet.err("plugboard: e")
    #expect(captured.lines.withLock { $0 } == ["out: report", "err: plugboard: e"])
  }
}

/// What a command wrote, in order, each line marked with its stream.
private final class CapturedConsole: Console {
  let lines = Mutex<[String]>([])

  func out(_ line: String) {
    lines.withLock { $0.append("out: " + line) }
  }

  func err(_ line: String) {
    lines.withLock { $0.append("err: " + line) }
  }
}
