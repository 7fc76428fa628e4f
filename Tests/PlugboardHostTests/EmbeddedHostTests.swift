import Foundation
// Not @testable: what is used here must be public, as an embedding program sees it.
import PlugboardEngine
import PlugboardKit
import PlugboardTestSupport
import Testing

/// The example embedding program (Examples/EmbeddedHost), run as a
/// separate executable on the sample deployment; and the facade it uses,
/// called in this process.
@Suite(.blocking) struct EmbeddedHostTests {
  private static var executable: String { BuildProducts.directory + "/embedded-host" }

  private func sample() throws -> (folder: TemporaryDirectory, manifest: String) {
    let folder = try TemporaryDirectory()
    let analytics = try ThirdPartyBuild.analytics.get()
    return (folder, try folder.write("plugins.json", SampleManifest.text(analytics: analytics)))
  }

  /// The plugins a profile of the sample loads, as the example names them.
  private static func loaded(in profile: String) -> String {
    let plugins = BuildProducts.samplePlugins.filter { $0 != (profile == "mock" ? "Auth" : "AuthMock") }
    return "[embedded-host] profile '\(profile)': \((plugins + ["Analytics"]).joined(separator: ", "))"
  }

  private func embeddedHost(
    _ arguments: [String], in directory: String? = nil, environment: [String: String] = [:]
  ) throws -> ProcessResult {
    // The example consults PLUGBOARD_PROFILE as plugboard does; the
    // tests' own environment must not choose for it.
    try Subprocess.run(
      Self.executable, arguments, in: directory,
      environment: environment.merging(["PLUGBOARD_PROFILE": ""]) { $1 })
  }

  /// The example links the engine and none of the command line: no symbol
  /// of the PlugboardCLI module (its help text, its commands) is in the
  /// executable, while `plugboard-host` has them. SwiftPM links every object of
  /// a target an executable depends on, so this holds only while the
  /// engine does not depend on the CLI.
  @Test func linksTheEngineWithoutTheCommandLine() throws {
    // grep: the executables are tens of megabytes of debug information.
    func names(_ executable: String, _ symbol: String) throws -> Bool {
      try Subprocess.run("/usr/bin/env", ["grep", "-q", "-a", "-F", symbol, executable]).status == 0
    }
    #expect(try names(Self.executable, "15PlugboardEngine"))
    #expect(try !names(Self.executable, "12PlugboardCLI"))
    #expect(try !names(Self.executable, "8HelpTextO"))
    #expect(try names(BuildProducts.host, "12PlugboardCLI8HelpTextO"))
  }

  /// Every command Docs/embedding.md shows succeeds as written, on the
  /// sample (named with `--manifest`, which the page leaves to the
  /// default `./plugins.json`): the supervised one signed in as grace
  /// failed with 401 when the page left out her password.
  @Test func everyCommandTheGuideShowsSucceeds() throws {
    let page = try String(contentsOfFile: BuildProducts.packageRoot + "/Docs/embedding.md", encoding: .utf8)
    let commands = page.split(separator: "\n").filter { $0.hasPrefix(".build/debug/embedded-host ") }
    #expect(commands.count == 3)
    let sample = try sample()
    for command in commands {
      let written = command.split(separator: "#", maxSplits: 1)[0]
      var arguments = written.split(separator: " ").dropFirst().map(String.init)
      arguments.insert(contentsOf: ["--manifest", sample.manifest], at: arguments.firstIndex(of: "--") ?? 0)
      let result = try embeddedHost(arguments)
      #expect(result.status == 0, "\(command)\n\(result.stdout)\(result.stderr)")
    }
  }

  /// The example's users never typed `--manifest`'s namesake for the
  /// library, so a missing default manifest is explained without telling
  /// them to pass a flag of `plugboard`'s.
  @Test func aMissingManifestIsExplainedWithoutPlugboardsFlag() throws {
    let folder = try TemporaryDirectory()
    let result = try embeddedHost([], in: folder.path)
    #expect(result.status == 78)
    #expect(
      result.stderrLines == [
        "[embedded-host] read manifest: no manifest at \(folder.path)/plugins.json (looked for the default "
          + "./plugins.json in the current directory)"
      ])
  }

  // MARK: The example executable

  @Test(arguments: [("live", ProfileDeploymentTests.liveOutput), ("mock", ProfileDeploymentTests.mockOutput)])
  func theExampleRunsTheSampleInEachProfile(profile: String, output: String) throws {
    let sample = try sample()
    let result = try embeddedHost(["--manifest", sample.manifest, "--profile", profile])
    #expect(result.stdout == output)
    #expect(
      result.stderrLines == [Self.loaded(in: profile), "[embedded-host] the application ended with status 0"])
    #expect(result.status == 0)
  }

  @Test(arguments: ["live", "mock"])
  func theExampleChecksAsPlugboardCheckDoes(profile: String) throws {
    let sample = try sample()
    let result = try embeddedHost(["--manifest", sample.manifest, "--profile", profile, "--check"])
    let plugboard = try Subprocess.plugboard(["check", "--manifest", sample.manifest, "--profile", profile])
    #expect(result.stdout == plugboard.stdout)
    #expect(
      result.stdout.hasSuffix(
        "check: 0 errors, 0 warnings; the deployment is healthy in profile '\(profile)'\n"))
    #expect(result.stderrLines == [Self.loaded(in: profile)])
    #expect(result.status == 0 && plugboard.status == 0)
  }

  @Test func theExamplePassesArgumentsAndReportsTheApplicationsFailure() throws {
    let sample = try sample()
    let result = try embeddedHost(["--manifest", sample.manifest, "--", "--user", "grace", "--password", "x"])
    #expect(
      result.stderrLines == [
        Self.loaded(in: "live"), "[embedded-host] the application failed: POST /session answered 401",
      ])
    #expect(result.status == 1)
  }

  @Test func theExampleReportsProblemsWithItsOwnPrefix() throws {
    let folder = try TemporaryDirectory()
    let ghost = folder.path + "/libGhost.so"
    let manifest = try folder.writeManifest([("Healthy", BuildProducts.library("Healthy")), ("Ghost", ghost)])
    let result = try embeddedHost(["--manifest", manifest])
    let brought = try EmbeddedDeployment.bringUp(manifest: manifest, environment: [:])
    #expect(brought.problems.count == 1)
    #expect(
      result.stderrLines == ["[embedded-host] profile '-': Healthy"]
        + brought.problems.map { "[embedded-host] \($0)" })
    #expect(result.stderrLines.last?.hasPrefix("[embedded-host] locate: plugin 'Ghost' (\(ghost))") == true)
    #expect(result.stdout == "")
    #expect(result.status == 78)
  }

  @Test func theExampleReportsAnUndeclaredProfileAndMisuse() throws {
    let sample = try sample()
    let profile = try embeddedHost(["--manifest", sample.manifest, "--profile", "moc"])
    #expect(
      profile.stderrLines == [
        "[embedded-host] no profile 'moc' is declared in \(sample.manifest); did you mean 'mock'?"
      ])
    #expect(profile.status == 78)
    let misuse = try embeddedHost(["--bogus"])
    #expect(
      misuse.stderrLines == [
        "[embedded-host] unknown argument '--bogus'",
        "[embedded-host] usage: embedded-host [--manifest PATH] [--profile NAME] [--check] "
          + "[--supervised [--reload-on-hangup]] [-- ARGUMENTS]",
      ])
    #expect(misuse.status == 64)
  }

  /// Standard error a pipe whose reader is gone (`2>&1 | head -1` after
  /// `head` ended): the example's own lines are lost, but it ends by its
  /// exit status, not by a trap in the write, which embedders would copy.
  @Test(arguments: [(["--bogus"], Int32(64)), (["--profile", "mock"], Int32(0))])
  func theExampleSurvivesStandardErrorWithTheReaderGone(arguments: [String], status: Int32) throws {
    let sample = try sample()
    // A FIFO opened for reading and writing, then for writing, then the
    // first closed: a write end with no reader, with no race.
    let fifo = sample.folder.path + "/errors"
    let script = #"""
      mkfifo "$1" && exec 3<>"$1" 4>"$1" 3<&- && PLUGBOARD_PROFILE= exec "$0" "${@:2}" 2>&4 4>&-
      """#
    let result = try Subprocess.run(
      "/bin/bash", ["-c", script, Self.executable, fifo, "--manifest", sample.manifest] + arguments)
    #expect(result.exited && result.status == status, "exited: \(result.exited), status \(result.status)")
  }

  /// Supervised, a plugin that traps while it assembles is set aside and
  /// named, as `plugboard` does; in process (the default), it takes the
  /// program down: what embedding without supervision gives up.
  /// An embedding program that asks for it reloads on SIGHUP as `plugboard
  /// run` does: a new child runs the program again, takes over once its
  /// application runs, and the old one stops.
  @Test func supervisedWithReloadOnHangupTheExampleReloadsOnSighup() throws {
    let folder = try TemporaryDirectory()
    let mode = try folder.write("mode", "")
    let manifest = try folder.write("plugins.json", ReloadTests.Running.manifest(hookTimeout: "5"))
    let process = try GroupedProcess(
      ["--manifest", manifest, "--supervised", "--reload-on-hangup", "--", "wait"],
      environment: ["LIFECYCLE_PROBE_FILE": mode], executable: Self.executable)
    #expect(try process.waitForLine("ready"))
    process.signal(SIGHUP)
    #expect(
      try ReloadTests.outcome(of: process)
        == "plugboard: run: reloaded: the new deployment took over after <time>; nothing changed")
    // Two children answered `wait` with "ready": the old one and the new one.
    #expect(try process.waitForLine(onStderr: false, skipping: 1) { $0 == "ready" } != nil)
    process.signal(SIGTERM)
    // The parent returns 128 + SIGTERM, which the example exits with.
    #expect(try process.finish() == .exited(128 + SIGTERM))
  }

  /// Without `reloadsOnHangup`, SIGHUP stops a supervised embedding
  /// program, as it always did.
  @Test func supervisedWithoutReloadOnHangupASighupStopsTheExample() throws {
    let folder = try TemporaryDirectory()
    let mode = try folder.write("mode", "")
    let manifest = try folder.write("plugins.json", ReloadTests.Running.manifest(hookTimeout: "5"))
    let process = try GroupedProcess(
      ["--manifest", manifest, "--supervised", "--", "wait"], environment: ["LIFECYCLE_PROBE_FILE": mode],
      executable: Self.executable)
    #expect(try process.waitForLine("ready"))
    process.signal(SIGHUP)
    #expect(try process.finish() == .exited(128 + SIGHUP))
    #expect(!process.stderrText.contains("reload"))
  }

  @Test func supervisedTheExampleSurvivesATrappingPluginUnsupervisedItDoesNot() throws {
    let folder = try TemporaryDirectory()
    let trapping = BuildProducts.library("TrappingAssembly")
    let manifest = try folder.writeManifest([
      ("Healthy", BuildProducts.library("Healthy")), ("TrappingAssembly", trapping),
    ])
    let supervised = try embeddedHost(["--manifest", manifest, "--supervised"])
    #expect(
      supervised.stderrLines.filter { $0.hasPrefix("[embedded-host] ") }.map(CrashLocation.masked) == [
        "[embedded-host] profile '-': Healthy",
        "[embedded-host] assemble: plugin 'TrappingAssembly' (\(trapping)) crashed with SIGILL (a Swift runtime "
          + #"trap: "TrappingAssembly/TrappingAssemblyPlugin.swift:14: Fatal error: TrappingAssembly cannot "#
          + #"assemble: configuration missing") in libTrappingAssembly.so+0x… while assembling — fix the "#
          + #"plugin, or set "enabled": false in "#
          + "the manifest to deploy without it",
      ])
    #expect(supervised.exited && supervised.status == 78)

    let unsupervised = try embeddedHost(
      ["--manifest", manifest], environment: ["SWIFT_BACKTRACE": "enable=no"])
    #expect(!unsupervised.exited && unsupervised.status == SIGILL)
    #expect(!unsupervised.stderr.contains("[embedded-host]"))
  }

  /// Supervised, SIGTERM to the example while its application runs: the
  /// stop hooks run, and `supervise` hands back 128 + 15, which the
  /// example exits with (`plugboard` itself would end by the signal), as
  /// Docs/embedding.md says.
  @Test func supervisedAnOrderlyStopBySignalReturns128PlusTheSignal() throws {
    let folder = try TemporaryDirectory()
    let manifest = try folder.writeManifest([("LifecycleProbe", BuildProducts.library("LifecycleProbe"))])
    let process = try GroupedProcess(
      ["--manifest", manifest, "--supervised", "--", "wait"], environment: ["PLUGBOARD_PROFILE": ""],
      executable: Self.executable)
    #expect(try process.waitForLine("ready"))
    process.signal(SIGTERM)
    #expect(try process.finish() == .exited(128 + SIGTERM))
    #expect(process.stdoutLines == ProcessModelTests.stoppedInOrder)
    #expect(
      process.stderrText.split(separator: "\n") == [
        "[embedded-host] profile '-': LifecycleProbe",
        "[embedded-host] the application ended with status 143",
      ])
    #expect(process.groupIsGone)
  }

  /// This test process runs threads (the test runner's): supervision is
  /// refused, as a value, before anything forks.
  @Test func supervisionIsRefusedInAProcessWithThreads() throws {
    let threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count
    try #require(threads > 1)
    let me = getpid()
    do throws(EmbeddedDeployment.SupervisionError) {
      let status = try EmbeddedDeployment.supervise()
      // Had it forked, the child must not go on running the tests.
      if getpid() != me { _exit(0) }
      Issue.record("supervise was not refused: \(String(describing: status))")
    } catch {
      let count =
        switch error {
        case .threadsRunning(let count): count
        }
      #expect(count > 1)
      #expect(
        error.line(prefix: "[program] ")
          == "[program] cannot supervise the deployment: the process already runs \(count) threads, and a "
          + "process with threads cannot be forked safely; call EmbeddedDeployment.supervise() first in main, "
          + "before any await, task, Dispatch queue or thread, or run unsupervised")
      #expect(error.description == error.line())
    }
  }

  // MARK: The facade, in this process (plugin code runs here)

  @Test func bringsTheSampleUpResolvesAndChecksInProcess() throws {
    let sample = try sample()
    let deployment = try EmbeddedDeployment.bringUp(
      manifest: sample.manifest, profile: "mock", environment: [:])
    #expect(deployment.problems.isEmpty)
    #expect(deployment.profile == "mock")
    #expect(deployment.manifestPath == sample.manifest)
    #expect(Self.loaded(in: "mock").hasSuffix(deployment.loadedPlugins.joined(separator: ", ")))
    #expect(deployment.resolver.hasRegistration((any Application).self))
    let report = deployment.check()
    let plugboard = try Subprocess.plugboard(["check", "--manifest", sample.manifest, "--profile", "mock"])
    #expect(report.lines.map { $0 + "\n" }.joined() == plugboard.stdout)
    #expect(report.healthy)
    let launch = try deployment.launch()
    #expect(launch.warnings.isEmpty)
  }

  @Test func refusesToRunADeploymentWithProblems() async throws {
    let folder = try TemporaryDirectory()
    let ghost = folder.path + "/libGhost.so"
    let manifest = try folder.writeManifest([("Ghost", ghost)])
    let deployment = try EmbeddedDeployment.bringUp(manifest: manifest, environment: [:])
    #expect(deployment.loadedPlugins.isEmpty)
    let problem = try #require(deployment.problems.first)
    #expect(problem.stage == .locate && problem.plugin == "Ghost" && problem.file == ghost)
    do {
      _ = try await deployment.run(arguments: [])
      Issue.record("a deployment with problems ran")
    } catch {
      guard case .deploymentProblems(let problems) = error else {
        Issue.record("refused for another reason: \(error)")
        return
      }
      #expect(problems == deployment.problems)
      #expect(
        error.lines(prefix: "app: ", command: nil) == [
          "app: \(problem)", "app: the deployment has 1 problem; the application was not run",
        ])
      #expect(error.exitStatus == 78)
    }
  }

  /// A program that embeds the engine has no `--profile` of its own
  /// unless it makes one: a profile it asked for that the manifest lacks
  /// is named without plugboard's flag (which `plugboard` keeps), and
  /// `PLUGBOARD_PROFILE`, which bring-up consults too, as it is.
  @Test func anUndeclaredProfileIsNamedWithoutPlugboardsFlag() throws {
    let sample = try sample()
    let missing = "no profile 'mok' is declared in \(sample.manifest); did you mean 'mock'?"
    let cases: [(profile: String?, environment: [String: String], line: String)] = [
      ("mok", [:], "app: " + missing),
      (nil, ["PLUGBOARD_PROFILE": "mok"], "app: PLUGBOARD_PROFILE=mok: " + missing),
    ]
    for (profile, environment, line) in cases {
      do throws(EmbeddedDeployment.BringUpError) {
        _ = try EmbeddedDeployment.bringUp(
          manifest: sample.manifest, profile: profile, environment: environment)
        Issue.record("the undeclared profile was brought up")
      } catch {
        #expect(error.lines(prefix: "app: ") == [line])
        #expect(error.description == "plugboard: " + line.dropFirst("app: ".count))
      }
    }
  }

  @Test func aManifestThatCannotBeReadIsThrown() throws {
    let folder = try TemporaryDirectory()
    let missing = folder.path + "/absent.json"
    #expect {
      try EmbeddedDeployment.bringUp(manifest: missing, environment: [:])
    } throws: { error in
      guard let error = error as? EmbeddedDeployment.BringUpError, case .manifest(let manifest) = error else {
        return false
      }
      return error.lines(prefix: "app: ") == manifest.problems.map { "app: \($0)" }
        && error.lines(prefix: "app: ").first?.contains(missing) == true
    }
  }
}
