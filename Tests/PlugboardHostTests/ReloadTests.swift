import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// `plugboard run` reloaded by SIGHUP (Docs/operating.md, "Reloading"): a
/// new deployment comes up beside the running one and replaces it only
/// once its start hooks ran; one that fails leaves the running one
/// untouched. Each deployment is LifecycleProbe's, whose hooks and
/// application print on standard output, so what ran in which child shows;
/// the mode of each bring-up comes from a file the test rewrites.
@Suite(.serialized, .blocking) struct ReloadTests {
  static let reloading = "plugboard: run: reloading: bringing a new deployment up beside the running one"
  static let site = "LifecycleProbe/LifecycleProbePlugin.swift:24"
  static let started: [Substring] = [
    "start Pool", "start Sessions", "start Cache", "application running", "ready",
  ]
  static let stopped: [Substring] = ["application cancelled", "stop Cache", "stop Sessions", "stop Pool"]
  static let hookFailed = [
    "plugboard: run: plugin 'LifecycleProbe': the start hook of Cache (\(site)) threw: "
      + "the cache server refused the connection",
    "plugboard: run: stopped the 2 services already started; the application was not run",
  ]

  /// A running deployment of LifecycleProbe, its manifest and its mode
  /// file, once its application said it is ready.
  struct Running {
    let folder: TemporaryDirectory
    let manifest: String
    let mode: String
    let process: GroupedProcess

    /// Where `run --pid-file` writes, when the test asked for it.
    var pidFile: String { folder.path + "/run.pid" }

    init(
      hookTimeout: String = "5", environment: [String: String] = [:], writingPidFile: Bool = false,
      mode firstMode: String = "", flags extraFlags: [String] = [],
      executable: String = BuildProducts.plugboard
    ) throws {
      folder = try TemporaryDirectory()
      mode = try folder.write("mode", firstMode)
      manifest = try folder.write("plugins.json", Self.manifest(hookTimeout: hookTimeout))
      let flags = (writingPidFile ? ["--pid-file", folder.path + "/run.pid"] : []) + extraFlags
      process = try GroupedProcess(
        ["run", "--manifest", manifest] + flags + ["--", "wait"],
        environment: environment.merging(["LIFECYCLE_PROBE_FILE": mode]) { $1 }, executable: executable)
      #expect(try process.waitForLine("ready"))
    }

    /// The manifest: LifecycleProbe, then `extra` plugins.
    static func manifest(hookTimeout: String, extra: [(String, String)] = []) -> String {
      let plugins = [("LifecycleProbe", BuildProducts.library("LifecycleProbe"))] + extra
      let entries = plugins.map { #"{ "name": "\#($0.0)", "path": "\#($0.1)" }"# }
      return #"{ "formatVersion": 1, \#(BuildProducts.rootsMember) "hookTimeout": \#(hookTimeout), "#
        + #""plugins": [ \#(entries.joined(separator: ", ")) ] }"#
    }

    /// Rewrites the manifest with `plugin`, a test plugin, after
    /// LifecycleProbe.
    func add(_ plugin: String) throws {
      try folder.write(
        "plugins.json", Self.manifest(hookTimeout: "5", extra: [(plugin, BuildProducts.library(plugin))]))
    }

    /// Sets the next bring-up's mode, sends SIGHUP, and returns the line
    /// that ends the reload (`reloaded` or `reload failed`), time masked.
    func reload(mode text: String = "", skipping: Int = 0) throws -> String? {
      try folder.write("mode", text)
      process.signal(SIGHUP)
      return try outcome(skipping: skipping)
    }

    /// The `skipping`+1st line that ends a reload, time masked.
    func outcome(skipping: Int = 0) throws -> String? {
      try ReloadTests.outcome(of: process, skipping: skipping)
    }

    /// Stops the deployment that runs with SIGTERM: it ends by it.
    func stop() throws {
      process.signal(SIGTERM)
      #expect(try process.finish() == .killed(SIGTERM))
      #expect(process.groupIsGone)
    }

    var stderrLines: [String] {
      process.stderrText.split(separator: "\n").map { (try? ReloadTests.masked(String($0))) ?? String($0) }
    }
  }

  /// The `skipping`+1st line of `process`'s standard error that ends a
  /// reload (`reloaded` or `reload failed`), time masked; whatever
  /// supervises it, `plugboard run` or an embedding program.
  static func outcome(of process: GroupedProcess, skipping: Int = 0) throws -> String? {
    let line = try process.waitForLine(onStderr: true, skipping: skipping) {
      $0.hasPrefix("plugboard: run: reloaded: ") || $0.hasPrefix("plugboard: run: reload failed ")
    }
    return try line.map { try masked(String($0)) }
  }

  static func masked(_ line: String) throws -> String {
    line.replacing(try Regex(#"after [0-9]+\.[0-9]+ m?s"#), with: "after <time>")
  }

  static func failed(_ reason: String) -> String {
    "plugboard: run: reload failed after <time>: \(reason); the running deployment carries on"
  }

  /// Before the deployment is up, SIGHUP stops `run`, as it always did:
  /// there is nothing to reload yet.
  @Test func aHangupDuringTheFirstBringUpStops() throws {
    let folder = try TemporaryDirectory()
    let mode = try folder.write("mode", "hang-cache")
    let manifest = try folder.write("plugins.json", Running.manifest(hookTimeout: "60"))
    let process = try GroupedProcess(
      ["run", "--manifest", manifest, "--", "wait"], environment: ["LIFECYCLE_PROBE_FILE": mode])
    #expect(try process.waitForLine("Cache waits"))
    process.signal(SIGHUP)
    #expect(try process.finish() == .killed(SIGHUP))
    #expect(process.stdoutLines == ["start Pool", "start Sessions", "Cache waits"])
    #expect(process.stderrText == "")
    #expect(process.groupIsGone)
  }

  /// A start hook of the new deployment fails: it stops what it started,
  /// and the running one carries on, to stop in order when asked.
  @Test func aFailingStartHookLeavesTheRunningDeployment() throws {
    let running = try Running()
    let outcome = try running.reload(mode: "fail-cache")
    #expect(outcome == Self.failed("a start hook failed (exit status 69)"))
    try running.stop()
    #expect(
      running.process.stdoutLines
        == Self.started + ["start Pool", "start Sessions", "stop Sessions", "stop Pool"] + Self.stopped)
    #expect(running.stderrLines == [Self.reloading] + Self.hookFailed + [outcome ?? ""])
  }

  /// A reload that fails after the new deployment said what it brought
  /// up says what it would have changed.
  @Test func aFailedReloadSaysWhatItWouldHaveChanged() throws {
    let running = try Running()
    try running.add("GreetingProvider")
    let outcome = try running.reload(mode: "fail-cache")
    #expect(outcome == Self.failed("a start hook failed (exit status 69)"))
    try running.stop()
    #expect(
      running.stderrLines
        == [Self.reloading] + Self.hookFailed + [
          "plugboard: run: what the reload would have changed: plugins added: GreetingProvider",
          outcome ?? "",
        ])
  }

  /// A start hook of the new deployment that never returns is given up at
  /// the manifest's `hookTimeout`; the running one carries on.
  @Test func aHangingStartHookLeavesTheRunningDeployment() throws {
    let running = try Running(hookTimeout: "1")
    let outcome = try running.reload(mode: "hang-cache")
    #expect(outcome == Self.failed("a start hook failed (exit status 69)"))
    try running.stop()
    #expect(
      running.process.stdoutLines
        == Self.started + ["start Pool", "start Sessions", "Cache waits", "stop Sessions", "stop Pool"]
        + Self.stopped)
    #expect(
      running.stderrLines == [
        Self.reloading,
        "plugboard: run: plugin 'LifecycleProbe': the start hook of Cache (\(Self.site)) did not finish within "
          + "1 s and was cancelled (if it is only slow, raise \"hookTimeout\" in the manifest or pass "
          + "--hook-timeout)",
        "plugboard: run: stopped the 2 services already started; the application was not run",
        outcome ?? "",
      ])
  }

  /// A manifest that is not JSON any more: the new child says so as `run`
  /// would, and the running deployment carries on.
  @Test func aBrokenManifestLeavesTheRunningDeployment() throws {
    let running = try Running()
    try running.folder.write("plugins.json", "{ \"formatVersion\": 1, ")
    let outcome = try running.reload()
    #expect(outcome == Self.failed("the deployment is broken (exit status 78)"))
    try running.stop()
    #expect(running.process.stdoutLines == Self.started + Self.stopped)
    let lines = running.stderrLines
    #expect(lines.first == Self.reloading)
    #expect(lines.last == outcome)
    #expect(lines.count > 2 && lines.dropFirst().first?.contains("plugins.json") == true)
  }

  /// A plugin added that crashes as it assembles: the reload names it,
  /// as `run` names a plugin it sets aside, and the running deployment
  /// carries on (no plugin is set aside in it).
  @Test func aCrashingPluginLeavesTheRunningDeployment() throws {
    let running = try Running()
    try running.add("TrappingAssembly")
    let outcome = try #require(try running.reload())
    #expect(
      outcome.hasPrefix(
        "plugboard: run: reload failed after <time>: assemble: plugin 'TrappingAssembly' "
          + "(\(BuildProducts.library("TrappingAssembly"))) crashed with SIGILL"))
    #expect(outcome.hasSuffix("; the running deployment carries on"))
    try running.stop()
    #expect(running.process.stdoutLines == Self.started + Self.stopped)
    // Between them, the Swift runtime's own line for the trap.
    let lines = running.stderrLines
    #expect(lines.count == 3 && lines.first == Self.reloading && lines.last == outcome)
  }

  /// A plugin added: the new deployment comes up with it and takes over,
  /// the old one stops in order, once; the report says what changed.
  @Test func aReloadBringsTheNewDeploymentUpThenStopsTheOldOne() throws {
    let running = try Running()
    try running.add("GreetingProvider")
    let outcome = try running.reload()
    #expect(
      outcome
        == "plugboard: run: reloaded: the new deployment took over after <time>; plugins added: GreetingProvider"
    )
    // The new application's own line may come after the reload's.
    #expect(try running.process.waitForLine(skipping: 1) { $0 == "ready" } != nil)
    // The old child stops as the new one's application starts: their
    // lines may interleave, each child's in its order.
    let afterFirst = Array(running.process.stdoutLines.dropFirst(Self.started.count))
    #expect(afterFirst.filter { !Self.started.contains($0) } == Self.stopped)
    #expect(afterFirst.filter { !Self.stopped.contains($0) } == Self.started)
    try running.stop()
    #expect(running.process.stdoutLines.suffix(Self.stopped.count) == ArraySlice(Self.stopped))
    #expect(running.process.stdoutLines.filter { $0 == "stop Pool" }.count == 2)
    #expect(running.stderrLines == [Self.reloading, outcome ?? ""])
  }

  /// SIGTERM while the new deployment is in its start hooks: both stop,
  /// each running its stop hooks once (the new one for what it started),
  /// and plugboard ends by SIGTERM.
  @Test func aStopRequestDuringAReloadStopsBoth() throws {
    let running = try Running(hookTimeout: "60")
    try running.folder.write("mode", "hang-cache")
    running.process.signal(SIGHUP)
    #expect(try running.process.waitForLine("Cache waits"))
    try running.stop()
    let afterFirst = Array(running.process.stdoutLines.dropFirst(Self.started.count))
    let ofNew: [Substring] = ["start Pool", "start Sessions", "Cache waits", "stop Sessions", "stop Pool"]
    #expect(
      afterFirst.filter { ["application cancelled", "stop Cache"].contains($0) }
        == Array(Self.stopped.prefix(2)))
    #expect(afterFirst.count == ofNew.count + Self.stopped.count)
    #expect(afterFirst.filter { $0 == "stop Sessions" }.count == 2)
    #expect(afterFirst.filter { $0 == "stop Pool" }.count == 2)
    #expect(Array(afterFirst.prefix(3)) == Array(ofNew.prefix(3)))
    #expect(!running.process.stderrText.contains("reloaded"))
    #expect(!running.process.stderrText.contains("reload failed"))
  }

  /// The running deployment ends during a reload (here it is killed):
  /// that is the service's end, as without a reload. The new one is asked
  /// to stop, stops what it started, and plugboard ends as the old one's
  /// end says.
  @Test func theOldDeploymentEndingDuringAReloadEndsTheRun() throws {
    let running = try Running(hookTimeout: "60")
    let old = try #require(running.process.children.first)
    try running.folder.write("mode", "hang-cache")
    running.process.signal(SIGHUP)
    #expect(try running.process.waitForLine("Cache waits"))
    kill(old, SIGKILL)
    #expect(try running.process.finish() == .exited(128 + SIGKILL))
    #expect(
      running.process.stdoutLines
        == Self.started + ["start Pool", "start Sessions", "Cache waits", "stop Sessions", "stop Pool"])
    #expect(running.process.groupIsGone)
  }

  /// A SIGHUP during a reload is kept: one more reload follows the one
  /// under way, so the deployment ends up as the manifest was last. Each
  /// bring-up's start hook takes 1.5 s, so that the second request comes
  /// during the first reload (were it later, the outcome would be the same).
  @Test func aSecondReloadRequestDuringAReloadFollowsIt() throws {
    let running = try Running()
    try running.folder.write("mode", "slow-cache")
    running.process.signal(SIGHUP)
    #expect(try running.process.waitForLine(Self.reloading, onStderr: true))
    running.process.signal(SIGHUP)
    let reloaded = "plugboard: run: reloaded: the new deployment took over after <time>; nothing changed"
    #expect(try running.outcome() == reloaded)
    #expect(try running.outcome(skipping: 1) == reloaded)
    try running.stop()
    #expect(running.process.stdoutLines.filter { $0 == "stop Pool" }.count == 3)
    #expect(running.process.stdoutLines.filter { $0 == "application cancelled" }.count == 3)
    #expect(running.stderrLines == [Self.reloading, reloaded, Self.reloading, reloaded])
  }

  /// Two SIGHUPs that both come before the first reload starts make one
  /// reload: the parent is stopped while they are sent, so that both wait
  /// for it.
  @Test func twoHangupsBeforeTheReloadStartsMakeOneReload() throws {
    let running = try Running()
    let parent = running.process.pid
    kill(parent, SIGSTOP)
    kill(parent, SIGHUP)
    kill(parent, SIGHUP)
    kill(parent, SIGCONT)
    let reloaded = "plugboard: run: reloaded: the new deployment took over after <time>; nothing changed"
    #expect(try running.outcome() == reloaded)
    #expect(try running.process.waitForLine(skipping: 1) { $0 == "ready" } != nil)
    try running.stop()
    #expect(running.stderrLines == [Self.reloading, reloaded])
    #expect(running.process.stdoutLines.filter { $0 == "application running" }.count == 2)
  }

  /// An old deployment that ignores its stop request (its application
  /// takes SIGTERM from plugboard, and no service has a hook) is killed
  /// once its stop limit passed: twice `hookTimeout` (the application's
  /// time to end, disposing's) and the exit-time limit. The reload ends,
  /// and the next one is answered.
  @Test func anOldDeploymentThatIgnoresItsStopIsKilledAtItsLimit() throws {
    let running = try Running(hookTimeout: "2", mode: "ignore-term", flags: ["--exit-timeout", "2"])
    let reloaded = "plugboard: run: reloaded: the new deployment took over after <time>; nothing changed"
    #expect(try running.reload(mode: "ignore-term") == reloaded)
    let killed =
      "plugboard: run: warning: the previous deployment had not ended 6.00 s after its stop request; it was killed"
    #expect(try running.process.waitForLine(killed, onStderr: true))
    #expect(running.process.stdoutLines.filter { $0 == "application running" }.count == 2)
    // The deployment now serving ignores SIGTERM too.
    running.process.signalGroup(SIGKILL)
    _ = try running.process.finish()
    #expect(running.stderrLines == [Self.reloading, reloaded, killed])
  }

  /// A neighbour library (one a plugin loads from its own folder, here
  /// the contracts beside a copy of SecondKeychain) replaced between two
  /// reloads is named, though no plugin's file changed.
  @Test func aChangedNeighbourLibraryIsNamed() throws {
    let running = try Running()
    for name in ["SecondKeychain", "AppContracts"] {
      try FileManager.default.copyItem(
        atPath: BuildProducts.library(name), toPath: running.folder.path + "/lib\(name).so")
    }
    try running.folder.write(
      "plugins.json",
      Running.manifest(
        hookTimeout: "5", extra: [("SecondKeychain", running.folder.path + "/libSecondKeychain.so")]))
    #expect(try running.reload()?.hasSuffix("plugins added: SecondKeychain") == true)
    let contracts = running.folder.path + "/libAppContracts.so"
    try FileManager.default.copyItem(
      atPath: BuildProducts.library("AppContracts"), toPath: contracts + ".new")
    #expect(rename(contracts + ".new", contracts) == 0)
    #expect(
      try running.reload(skipping: 1)
        == "plugboard: run: reloaded: the new deployment took over after <time>; "
        + "neighbour libraries changed: libAppContracts.so")
    try running.stop()
  }

  /// A reload forks the parent, so it runs the code plugboard started
  /// with: after plugboard's own files were replaced (reinstalled), it
  /// fails, saying a restart is needed, and the running deployment carries
  /// on. Here a copy of plugboard runs, and its PlugboardKit is replaced.
  @Test func aReloadAfterPlugboardWasReplacedSaysToRestart() throws {
    let installed = try TemporaryDirectory()
    for file in ["plugboard", "plugboard-host", "libPlugboardKit.so"] {
      try FileManager.default.copyItem(
        atPath: BuildProducts.directory + "/" + file, toPath: installed.path + "/" + file)
    }
    let running = try Running(executable: installed.path + "/plugboard")
    let kit = installed.path + "/libPlugboardKit.so"
    try FileManager.default.copyItem(
      atPath: BuildProducts.directory + "/libPlugboardKit.so", toPath: kit + ".new")
    #expect(rename(kit + ".new", kit) == 0)
    #expect(
      try running.reload()
        == Self.failed(
          "plugboard itself was replaced on disk (\(kit) is not the file it runs), and a reload runs the code "
            + "it started with: restart it to run the new one"))
    try running.stop()
    #expect(running.process.stdoutLines == Self.started + Self.stopped)
  }

  /// Under systemd (`Type=notify-reload`): RELOADING=1 with the time it
  /// began, then READY=1 once the new deployment took over, or READY=1
  /// with the failure in the status when it did not come up.
  @Test func systemdHearsOfEachReload() throws {
    let socket = try NotifySocket()
    let running = try Running(environment: ["NOTIFY_SOCKET": socket.address])
    #expect(
      socket.messages(until: { $0 == SystemdNotifyTests.ready }) == [
        SystemdNotifyTests.loading, SystemdNotifyTests.ready,
      ])
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let before = Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
    #expect(try running.reload()?.hasPrefix("plugboard: run: reloaded: ") == true)
    let reloading = try #require(socket.next())
    let fields = reloading.split(separator: "\n")
    #expect(fields.count == 3 && fields[0] == "RELOADING=1" && fields[2] == "STATUS=Reloading")
    let began = try #require(fields.count > 1 ? Int64(fields[1].dropFirst("MONOTONIC_USEC=".count)) : nil)
    #expect(fields[1].hasPrefix("MONOTONIC_USEC=") && began >= before)
    #expect(socket.next() == SystemdNotifyTests.ready)
    #expect(
      try running.reload(mode: "fail-cache", skipping: 1)
        == Self.failed("a start hook failed (exit status 69)"))
    #expect(socket.next()?.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") == true)
    #expect(
      socket.next()
        == "READY=1\nSTATUS=Reload failed: a start hook failed (exit status 69); running the previous deployment"
    )
    try running.stop()
    #expect(socket.next() == SystemdNotifyTests.stopping)
    #expect(socket.next(timeout: .zero) == nil)
  }

  /// The watchdog is pinged through a reload: the parent follows both
  /// children, and a new deployment that takes its time (here a start hook
  /// that waits) is bounded by its own limits, not by the watchdog.
  @Test func theWatchdogIsPingedDuringAReload() throws {
    let socket = try NotifySocket()
    let running = try Running(
      hookTimeout: "60", environment: ["NOTIFY_SOCKET": socket.address, "WATCHDOG_USEC": "200000"])
    _ = socket.messages(until: { $0 == SystemdNotifyTests.ready })
    try running.folder.write("mode", "hang-cache")
    running.process.signal(SIGHUP)
    #expect(try running.process.waitForLine("Cache waits"))
    var reloading = false
    var pings = 0
    _ = socket.messages(until: { message in
      if message.hasPrefix("RELOADING=1\n") {
        reloading = true
      } else if reloading, message == "WATCHDOG=1" {
        pings += 1
      }
      return pings == 3
    })
    #expect(reloading && pings == 3)
    try running.stop()
  }
}

/// `plugboard reload`: it finds the run by its pid file (or `--pid`) and
/// refuses a process a SIGHUP would harm.
@Suite(.serialized, .blocking) struct ReloadCommandTests {
  @Test func itReloadsTheRunThatWroteThePidFile() throws {
    let running = try ReloadTests.Running(writingPidFile: true)
    #expect(try String(contentsOfFile: running.pidFile, encoding: .utf8) == "\(running.process.pid)\n")
    let result = try Subprocess.plugboard(["reload", "--pid-file", running.pidFile])
    #expect(result.exited && result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout
        == "plugboard: reload: asked pid \(running.process.pid) to reload; it reports the outcome on its "
        + "standard error (under systemd, the journal)\n")
    #expect(
      try running.outcome()
        == "plugboard: run: reloaded: the new deployment took over after <time>; nothing changed")
    try running.stop()
    #expect(!FileManager.default.fileExists(atPath: running.pidFile))
  }

  @Test func itRefusesTheSupervisedChildAndOtherProcesses() throws {
    let running = try ReloadTests.Running()
    let child = try #require(running.process.children.first)
    let refused = try Subprocess.plugboard(["reload", "--pid", "\(child)"])
    #expect(refused.exited && refused.status == 1)
    #expect(
      refused.stderrLines == [
        "plugboard: reload: process \(child) is the supervised child of 'plugboard run'; a SIGHUP would stop it: "
          + "give its supervising process, pid \(running.process.pid)"
      ])
    let other = try Subprocess.plugboard(["reload", "--pid", "\(getpid())"])
    #expect(other.exited && other.status == 1)
    #expect(
      other.stderrLines == [
        "plugboard: reload: process \(getpid()) is not a running 'plugboard run'; give the pid 'run --pid-file' "
          + "wrote, or systemd's MainPID (systemctl show -p MainPID UNIT)"
      ])
    let unnamed = try Subprocess.plugboard(["reload"])
    #expect(unnamed.exited && unnamed.status == 2)
    // Nothing reached the run: it stops as it started.
    try running.stop()
    #expect(running.process.stdoutLines == ReloadTests.started + ReloadTests.stopped)
    #expect(running.process.stderrText == "")
  }
}
