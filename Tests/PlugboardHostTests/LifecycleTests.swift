import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// Start and stop hooks under `plugboard run` (Docs/lifecycle.md), with
/// the test plugin LifecycleProbe: `Cache` → `Sessions` → `Pool`, registered
/// in the opposite order, each printing its hooks on standard output.
@Suite(.blocking) struct LifecycleTests {
  private static let site = "LifecycleProbe/LifecycleProbePlugin.swift:24"

  /// A folder with a manifest naming LifecycleProbe, with `extra` members.
  private func deployment(_ extra: String = "") throws -> (TemporaryDirectory, String) {
    let folder = try TemporaryDirectory()
    let library = BuildProducts.library("LifecycleProbe")
    let manifest = try folder.write(
      "plugins.json",
      #"{ "formatVersion": 1, \#(BuildProducts.rootsMember)\#(extra) "plugins": [ "#
        + #"{ "name": "LifecycleProbe", "path": "\#(library)" } ] }"#)
    return (folder, manifest)
  }

  @Test func servicesStartInDependencyOrderAndStopInReverseAfterTheApplicationEnds() throws {
    let (folder, manifest) = try deployment()
    defer { withExtendedLifetime(folder) {} }
    let result = try Subprocess.plugboard(["run", "--manifest", manifest])
    #expect(result.stderr == "")
    #expect(result.exited && result.status == 0)
    #expect(
      result.stdout.split(separator: "\n") == [
        "start Pool", "start Sessions", "start Cache", "application running",
        "stop Cache", "stop Sessions", "stop Pool",
      ])
  }

  /// `--verbose` times each hook, in the order it ran.
  @Test func verboseTimesEachHook() throws {
    let (folder, manifest) = try deployment()
    defer { withExtendedLifetime(folder) {} }
    let result = try Subprocess.plugboard(["run", "--manifest", manifest, "--verbose"])
    #expect(result.exited && result.status == 0)
    let hooks = try VerboseOutputTests.masked(result.stderr).split(separator: "\n").filter {
      $0.contains(" hook of ")
    }
    #expect(
      hooks == [
        "plugboard: plugin 'LifecycleProbe': start hook of Pool took <time>",
        "plugboard: plugin 'LifecycleProbe': start hook of Sessions took <time>",
        "plugboard: plugin 'LifecycleProbe': start hook of Cache took <time>",
        "plugboard: plugin 'LifecycleProbe': stop hook of Cache took <time>",
        "plugboard: plugin 'LifecycleProbe': stop hook of Sessions took <time>",
        "plugboard: plugin 'LifecycleProbe': stop hook of Pool took <time>",
      ])
  }

  @Test func aStartFailureStopsWhatStartedInReverseAndNamesPluginServiceAndHook() throws {
    let (folder, manifest) = try deployment()
    defer { withExtendedLifetime(folder) {} }
    let result = try Subprocess.plugboard(
      ["run", "--manifest", manifest], environment: ["LIFECYCLE_PROBE": "fail-cache"])
    #expect(result.exited && result.status == ExitStatus.runStartFailed.rawValue)
    #expect(
      result.stdout.split(separator: "\n") == ["start Pool", "start Sessions", "stop Sessions", "stop Pool"])
    #expect(
      result.stderrLines == [
        "plugboard: run: plugin 'LifecycleProbe': the start hook of Cache (\(Self.site)) threw: "
          + "the cache server refused the connection",
        "plugboard: run: stopped the 2 services already started; the application was not run",
      ])
  }

  /// The hook never ran: the instance it is given could not be made. It
  /// says so, rather than that the hook threw.
  @Test func aStartHookWhoseInstanceCannotBeMadeSaysSo() throws {
    let (folder, manifest) = try deployment()
    defer { withExtendedLifetime(folder) {} }
    let result = try Subprocess.plugboard(
      ["run", "--manifest", manifest], environment: ["LIFECYCLE_PROBE": "fail-make-cache"])
    #expect(result.exited && result.status == ExitStatus.runStartFailed.rawValue)
    #expect(
      result.stdout.split(separator: "\n") == ["start Pool", "start Sessions", "stop Sessions", "stop Pool"])
    #expect(
      result.stderrLines.first
        == "plugboard: run: plugin 'LifecycleProbe': the start hook of Cache (\(Self.site)) did not run: the "
        + "instance it is given could not be made:")
    #expect(result.stderr.contains("the cache server refused the connection"))
    #expect(!result.stderr.contains(") threw: "))
    #expect(
      result.stderrLines.last
        == "plugboard: run: stopped the 2 services already started; the application was not run")
  }

  /// The hook waits forever and ignores cancellation: the limit, from the
  /// manifest or the flag (which wins), ends it.
  @Test(arguments: [([String](), "2"), (["--hook-timeout", "1.5"], "1.5")])
  func aStartHookThatNeverReturnsIsGivenUpAtTheLimit(flag: [String], limit: String) throws {
    let (folder, manifest) = try deployment(#" "hookTimeout": 2,"#)
    defer { withExtendedLifetime(folder) {} }
    let result = try Subprocess.plugboard(
      ["run", "--manifest", manifest] + flag, environment: ["LIFECYCLE_PROBE": "hang-cache"])
    #expect(result.exited && result.status == 69)
    #expect(
      result.stdout.split(separator: "\n") == [
        "start Pool", "start Sessions", "Cache waits", "stop Sessions", "stop Pool",
      ])
    #expect(
      result.stderrLines == [
        "plugboard: run: plugin 'LifecycleProbe': the start hook of Cache (\(Self.site)) did not finish within "
          + "\(limit) s and was cancelled (if it is only slow, raise \"hookTimeout\" in the manifest or pass "
          + "--hook-timeout)",
        "plugboard: run: stopped the 2 services already started; the application was not run",
      ])
  }

  /// A start hook runs after the stages the supervisor times: one slower
  /// than `stageTimeout` is bounded by `hookTimeout` alone.
  @Test func theStageTimeoutDoesNotApplyToAStartHook() throws {
    let (folder, manifest) = try deployment(#" "stageTimeout": 1,"#)
    defer { withExtendedLifetime(folder) {} }
    let result = try Subprocess.plugboard(
      ["run", "--manifest", manifest], environment: ["LIFECYCLE_PROBE": "slow-cache"])
    #expect(result.stderr == "")
    #expect(result.exited && result.status == 0)
    #expect(
      result.stdout.split(separator: "\n").prefix(4) == [
        "start Pool", "start Sessions", "start Cache", "application running",
      ])
  }

  /// Runs `plugboard run` on the probe, sends `signal` once `line` was
  /// printed, and returns its outputs and the signal that ended it (nil
  /// when it exited).
  private func run(
    _ flags: [String], until line: String, signal: Int32, environment: [String: String] = [:]
  ) throws -> (stdout: [Substring], stderr: String, signal: Int32?) {
    try run(flags, signals: [(line, signal)], environment: environment)
  }

  /// Runs `plugboard run` on the probe, sending each signal once its line
  /// was printed, in turn.
  private func run(
    _ flags: [String], signals: [(line: String, signal: Int32)], environment: [String: String] = [:]
  ) throws -> (stdout: [Substring], stderr: String, signal: Int32?) {
    let (folder, manifest) = try deployment()
    defer { withExtendedLifetime(folder) {} }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: BuildProducts.plugboard)
    process.arguments = ["run", "--manifest", manifest] + flags
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    var seen = Data()
    for (line, signal) in signals {
      while !String(decoding: seen, as: UTF8.self).contains(line + "\n") {
        let chunk = output.fileHandleForReading.availableData
        guard !chunk.isEmpty else { break }
        seen.append(chunk)
      }
      kill(process.processIdentifier, signal)
    }
    seen.append(output.fileHandleForReading.readDataToEndOfFile())
    let stderr = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal, "exited with \(process.terminationStatus)")
    return (
      String(decoding: seen, as: UTF8.self).split(separator: "\n"), String(decoding: stderr, as: UTF8.self),
      process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil
    )
  }

  /// SIGTERM (as a service manager sends it) to the supervising parent,
  /// and SIGINT to an unsupervised `run`, once the application said it is
  /// ready: the application's task is cancelled, the stop hooks run in
  /// reverse, and plugboard ends by the signal, as a service manager
  /// expects of a process it asked to stop.
  @Test(arguments: [([String](), SIGTERM), (["--unsupervised"], SIGINT)])
  func aSignalShutsDownInOrder(flags: [String], signal: Int32) throws {
    let result = try run(flags + ["--", "wait"], until: "ready", signal: signal)
    #expect(result.signal == signal)
    #expect(result.stderr == "")
    #expect(
      result.stdout == [
        "start Pool", "start Sessions", "start Cache", "application running", "ready",
        "application cancelled", "stop Cache", "stop Sessions", "stop Pool",
      ])
  }

  /// A second SIGTERM while a stop hook hangs ends plugboard at once: the
  /// services after it are not stopped, and plugboard still ends by SIGTERM.
  @Test func aSecondSignalEndsTheShutDownAtOnce() throws {
    let result = try run(
      ["--", "wait"], signals: [("ready", SIGTERM), ("Cache stopping", SIGTERM)],
      environment: ["LIFECYCLE_PROBE": "hang-stop-cache"])
    #expect(result.signal == SIGTERM)
    #expect(result.stdout.suffix(2) == ["application cancelled", "Cache stopping"])
  }

  /// An application that ignores cancellation gets `hookTimeout` to end,
  /// then the services are stopped anyway.
  @Test func anApplicationThatIgnoresTheRequestIsLeftBehindAfterTheLimit() throws {
    let result = try run(["--hook-timeout", "1.5", "--", "stubborn"], until: "ready", signal: SIGTERM)
    #expect(result.signal == SIGTERM)
    #expect(
      result.stderr
        == "plugboard: run: the application did not end within 1.5 s of the request to stop; stopping the "
        + "services anyway\n")
    #expect(result.stdout.suffix(3) == ["stop Cache", "stop Sessions", "stop Pool"])
  }

  /// A failing stop hook is a warning; the others still run, and the
  /// application's status stands.
  @Test func aFailingStopHookIsReportedAndTheOthersStillRun() throws {
    let (folder, manifest) = try deployment()
    defer { withExtendedLifetime(folder) {} }
    let result = try Subprocess.plugboard(
      ["run", "--manifest", manifest], environment: ["LIFECYCLE_PROBE": "fail-stop-sessions"])
    #expect(result.exited && result.status == 0)
    #expect(result.stdout.split(separator: "\n").suffix(2) == ["stop Cache", "stop Pool"])
    #expect(
      result.stderrLines == [
        "plugboard: run: warning: plugin 'LifecycleProbe': the stop hook of Sessions "
          + "(LifecycleProbe/LifecycleProbePlugin.swift:45) threw: the cache server refused the connection"
      ])
  }

  /// SIGTERM while a start hook hangs: it is interrupted, what started is
  /// stopped in reverse, and the application never runs.
  @Test func aSignalDuringStartUpStopsWhatStarted() throws {
    let result = try run(
      [], until: "Cache waits", signal: SIGTERM, environment: ["LIFECYCLE_PROBE": "hang-cache"])
    #expect(result.signal == SIGTERM)
    #expect(result.stdout == ["start Pool", "start Sessions", "Cache waits", "stop Sessions", "stop Pool"])
    #expect(
      result.stderr
        == "plugboard: run: plugin 'LifecycleProbe': the start hook of Cache (\(Self.site)) was interrupted by the "
        + "request to stop\nplugboard: run: stopped the 2 services already started; the application was not run\n"
    )
  }

  @Test func hooksOnARegistrationThatIsNotContainerScopedAreAnError() throws {
    let (folder, manifest) = try deployment()
    defer { withExtendedLifetime(folder) {} }
    let environment = ["LIFECYCLE_PROBE": "transient"]
    let check = try Subprocess.plugboard(["check", "--manifest", manifest], environment: environment)
    #expect(check.status == 1)
    #expect(check.stdout.contains("error: lifecycle hooks on Ticket, which cannot carry them (graph)\n"))
    #expect(
      check.stdout.contains(
        "  Ticket has a start or stop hook (onStart/onStop), but it is graph, so the instance started is not "
          + "the one the application gets."))
    let run = try Subprocess.plugboard(["run", "--manifest", manifest], environment: environment)
    #expect(run.status == ExitStatus.runBroken.rawValue)
    #expect(run.stdout == "")
    #expect(run.stderrLines.first == "error: lifecycle hooks on Ticket, which cannot carry them (graph)")
  }

  @Test func aBadHookTimeoutIsRefused() throws {
    let (folder, manifest) = try deployment(#" "hookTimeout": 0,"#)
    defer { withExtendedLifetime(folder) {} }
    let flag = try Subprocess.plugboard(["run", "--manifest", manifest, "--hook-timeout", "soon"])
    #expect(flag.status == ExitStatus.runMisuse.rawValue)
    #expect(
      flag.stderrLines.first
        == "plugboard: --hook-timeout takes a number of seconds greater than 0 and at most 3600, found 'soon'"
    )
    let key = try Subprocess.plugboard(["run", "--manifest", manifest])
    #expect(key.status == ExitStatus.runBroken.rawValue)
    #expect(
      key.stderr.contains(
        "hookTimeout: expected a number of seconds greater than 0 and at most 3600, found 0"))
  }
}
