import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardEngine

/// plugboard among the processes around it, as shells, `timeout` and
/// service managers treat it: a request to stop is one request however it
/// arrives, plugboard ends by the signal that stopped it, and plugin code
/// that signals its own process is at fault (see SECURITY.md, "The parent:
/// who reports" and "The child: where plugin code runs").
@Suite(.serialized, .blocking) struct ProcessModelTests {
  /// LifecycleProbe (three services with hooks) beside a manifest.
  private func lifecycleDeployment() throws -> (TemporaryDirectory, String) {
    let folder = try TemporaryDirectory()
    let manifest = try folder.writeManifest([("LifecycleProbe", BuildProducts.library("LifecycleProbe"))])
    return (folder, manifest)
  }

  static let stoppedInOrder: [Substring] = [
    "start Pool", "start Sessions", "start Cache", "application running", "ready",
    "application cancelled", "stop Cache", "stop Sessions", "stop Pool",
  ]

  /// SIGTERM to the whole process group (systemd's `KillMode=control-group`,
  /// `timeout`, `kill -TERM -PGID`) reaches the child directly and through
  /// the parent: one request, so every stop hook runs, and plugboard ends by
  /// SIGTERM, as a service manager expects. Racy, so tried 20 times.
  @Test func aSignalToTheWholeGroupIsOneRequest() throws {
    let (folder, manifest) = try lifecycleDeployment()
    defer { withExtendedLifetime(folder) {} }
    for attempt in 1...20 {
      let process = try GroupedProcess(["run", "--manifest", manifest, "--", "wait"])
      #expect(try process.waitForLine("ready"))
      process.signalGroup(SIGTERM)
      let ending = try process.finish()
      #expect(ending == .killed(SIGTERM), "attempt \(attempt)")
      #expect(process.stdoutLines == Self.stoppedInOrder, "attempt \(attempt)")
      #expect(process.stderrText == "", "attempt \(attempt)")
      #expect(process.groupIsGone, "attempt \(attempt)")
    }
  }

  /// SIGINT to the group while a start hook hangs: the hook is interrupted,
  /// what started is stopped, and plugboard ends by SIGINT.
  @Test func aGroupInterruptDuringAStartHookIsOneRequest() throws {
    let (folder, manifest) = try lifecycleDeployment()
    defer { withExtendedLifetime(folder) {} }
    for attempt in 1...20 {
      let process = try GroupedProcess(
        ["run", "--manifest", manifest], environment: ["LIFECYCLE_PROBE": "hang-cache"])
      #expect(try process.waitForLine("Cache waits"))
      process.signalGroup(SIGINT)
      let ending = try process.finish()
      #expect(ending == .killed(SIGINT), "attempt \(attempt)")
      #expect(
        process.stdoutLines == ["start Pool", "start Sessions", "Cache waits", "stop Sessions", "stop Pool"],
        "attempt \(attempt)")
      #expect(
        process.stderrText
          == "plugboard: run: plugin 'LifecycleProbe': the start hook of Cache "
          + "(LifecycleProbe/LifecycleProbePlugin.swift:24) was interrupted by the request to stop\n"
          + "plugboard: run: stopped the 2 services already started; the application was not run\n",
        "attempt \(attempt)")
      #expect(process.groupIsGone, "attempt \(attempt)")
    }
  }

  /// A second request is a second signal, not the second copy of one: a
  /// second SIGTERM to the group while a stop hook hangs ends plugboard at
  /// once, by SIGTERM.
  @Test func aSecondGroupSignalEndsTheShutDownAtOnce() throws {
    let (folder, manifest) = try lifecycleDeployment()
    defer { withExtendedLifetime(folder) {} }
    for attempt in 1...20 {
      let process = try GroupedProcess(
        ["run", "--manifest", manifest, "--", "wait"], environment: ["LIFECYCLE_PROBE": "hang-stop-cache"])
      #expect(try process.waitForLine("ready"))
      process.signalGroup(SIGTERM)
      #expect(try process.waitForLine("Cache stopping"))
      process.signalGroup(SIGTERM)
      #expect(try process.finish() == .killed(SIGTERM), "attempt \(attempt)")
      #expect(
        process.stdoutLines.suffix(2) == ["application cancelled", "Cache stopping"], "attempt \(attempt)")
      #expect(process.groupIsGone, "attempt \(attempt)")
    }
  }

  /// A request while an optional plugin that ignores it hangs in bring-up
  /// stops the command: the plugin is not set aside as missing, and the
  /// application never runs.
  @Test func aRequestDuringBringUpStopsTheCommand() throws {
    let (folder, manifest, file) = try CFixtures.deployment("DeafHang", optional: true, before: ["Healthy"])
    defer { withExtendedLifetime(folder) {} }
    let process = try GroupedProcess(["run", "--manifest", manifest])
    // Its constructor has run once the open stage is announced; the
    // parent knows of the request at once, whatever the child does.
    #expect(try process.waitForLine("deaf", onStderr: true))
    process.signal(SIGTERM)
    #expect(try process.finish() == .killed(SIGTERM))
    #expect(process.stdoutText == "")
    #expect(
      process.stderrText.split(separator: "\n").filter { $0.hasPrefix("plugboard: ") } == [
        "plugboard: open: plugin 'DeafHang' (\(file)) ignored the request to stop (SIGTERM) while being "
          + "opened (in its library initialisers) and was killed"
      ])
    #expect(process.groupIsGone)
  }

  /// A constructor that sends its own process SIGTERM is a plugin's fault,
  /// not an operator's request: the plugin is named, set aside, and
  /// `list --json` still prints its document.
  @Test func aPluginSignallingItsOwnProcessIsAtFault() throws {
    let (folder, manifest, file) = try CFixtures.deployment("SelfTerm", before: ["Healthy"])
    defer { withExtendedLifetime(folder) {} }
    let result = try Subprocess.plugboard(["list", "--json", "--manifest", manifest])
    #expect(result.exited && result.status == 1)
    let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    #expect(json != nil)
    #expect(
      result.stderrLines.first
        == "plugboard: open: plugin 'SelfTerm' (\(file)) sent its own process SIGTERM (terminated) while being "
        + "opened (in its library initialisers); a plugin must never end the host's process — "
        + CrashReport.disableHint)
  }
}

/// No process outlives plugboard: the child dies with the parent, and what
/// plugin code started is ended with the child that started it.
@Suite(.serialized, .blocking) struct DescendantsTests {
  /// A constructor forks a process that sleeps 60 s, holding standard
  /// output, then the entry point crashes: the plugin is set aside, and
  /// `list --json | consumer` gets its whole document and the end of it
  /// at once, not 60 s later.
  @Test func whatACrashedChildLeftBehindIsEnded() throws {
    let (folder, manifest, file) = try CFixtures.deployment("StrayChild", before: ["Healthy"])
    defer { withExtendedLifetime(folder) {} }
    let process = try GroupedProcess(["list", "--json", "--manifest", manifest])
    #expect(try process.finish() == .exited(1))
    let json = try JSONSerialization.jsonObject(with: Data(process.stdout)) as? [String: Any]
    #expect(json != nil)
    #expect(
      process.stderrText.split(separator: "\n").first.map { CrashLocation.masked(String($0)) }
        == "plugboard: find entry: plugin 'StrayChild' (\(file)) crashed with SIGSEGV (segmentation fault: a bad "
        + "memory access) in libStrayChild.so+0x… in its entry point plugboard_entry_v1 — \(CrashReport.disableHint)"
    )
    #expect(process.groupIsGone)
  }

  /// `kill -9` of the parent, while the application runs or while a plugin
  /// still loads (no stage limit can end it then: the parent kept it):
  /// the child does not run on.
  @Test(arguments: [
    (["run"], "Healthy is running", false), (["list"], "deaf", true),
  ])
  func killingTheParentEndsTheChild(command: [String], line: String, onStderr: Bool) throws {
    // The deaf plugin alone, or the application's alone.
    let deaf = try CFixtures.deployment("DeafHang")
    defer { withExtendedLifetime(deaf) {} }
    let manifest =
      try onStderr
      ? deaf.manifest : deaf.folder.writeManifest([("Healthy", BuildProducts.library("Healthy"))])
    let process = try GroupedProcess(command + ["--manifest", manifest] + (onStderr ? [] : ["--", "wait"]))
    #expect(try process.waitForLine(line, onStderr: onStderr))
    let children = process.children
    #expect(children.count == 1)
    process.signal(SIGKILL)
    // The pipes end only once every process holding them did.
    #expect(try process.finish() == .killed(SIGKILL))
    // Ended, not merely done with the pipes; init reaps it in its time.
    for child in children { #expect(try GroupedProcess.hasEnded(child)) }
  }
}

/// plugboard's descriptors are its own: `list --json` prints one JSON
/// document on standard output whatever plugin code does to descriptors or
/// prints from its threads.
@Suite(.serialized, .blocking) struct OwnDescriptorsTests {
  private func deployment(_ fixture: String) throws -> (TemporaryDirectory, String, String) {
    try CFixtures.deployment(fixture, before: ["Healthy"])
  }

  /// A constructor closes descriptors 3–1023 (plugboard's saved standard
  /// output and its progress pipe among them, when the limit on
  /// descriptors is 1024 and they sit just below it) and opens 12 files,
  /// which take the low numbers.
  @Test(arguments: [nil, 1024])
  func aPluginThatClosesDescriptorsDoesNotTakeStandardOutput(limit: Int?) throws {
    let (folder, manifest, file) = try deployment("CloseDescriptors")
    defer { withExtendedLifetime(folder) {} }
    let arguments = ["list", "--json", "--manifest", manifest]
    for attempt in 1...10 {
      let result =
        try limit.map {
          try Subprocess.run(
            "/bin/sh", ["-c", "ulimit -n \($0) && exec \"$0\" \"$@\"", BuildProducts.plugboard] + arguments)
        } ?? Subprocess.plugboard(arguments)
      #expect(result.exited && result.status == 1, "attempt \(attempt)")
      let json = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
      #expect(json != nil, "attempt \(attempt): \(result.stdout.prefix(200))")
      #expect(
        result.stderrLines.contains {
          $0.hasPrefix("plugboard: find entry: plugin 'CloseDescriptors' (\(file)) returned NULL")
        }, "attempt \(attempt): \(result.stderr)")
      // The runtime's event loop went with the rest: put back, unless the
      // limit let the plugin close plugboard's copies too.
      let runtime = result.stderrLines.first ?? ""
      #expect(runtime.hasPrefix(Self.runtimeWarning), "attempt \(attempt): \(result.stderr)")
      guard limit != nil else {
        #expect(runtime.contains(" (anon_inode:[eventpoll])"))
        #expect(runtime.hasSuffix(" \(Self.whileOpened); \(Self.putBack)"), "attempt \(attempt): \(runtime)")
        continue
      }
      #expect(runtime.hasSuffix(" \(Self.whileOpened); \(Self.notPutBack)"), "attempt \(attempt): \(runtime)")
      #expect(
        result.stderrLines.dropFirst().first
          == "plugboard: warning: plugin code closed or replaced plugboard's descriptor of standard output while "
          + "the plugins loaded; plugboard took standard output back from its supervising process")
    }
  }

  /// A constructor that closes the runtime's event loop and is still
  /// running when the loop wakes (libdispatch's worker monitor, once a
  /// second) ends the process: Dispatch traps on the missing epoll
  /// instance. No handler can save it; the supervisor names the plugin and
  /// its initialisers, sets it aside, and the rest of the deployment is
  /// listed.
  @Test func aPluginThatBreaksTheEventLoopWhileItRunsIsReportedAsCrashing() throws {
    let (folder, manifest, file) = try deployment("BreakEventLoop")
    defer { withExtendedLifetime(folder) {} }
    let result = try Subprocess.plugboard(["list", "--json", "--manifest", manifest])
    #expect(result.exited && result.status == 1)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let plugins = try #require(json["plugins"] as? [[String: Any]])
    #expect(plugins.map { $0["name"] as? String } == ["Healthy", "BreakEventLoop"])
    let crash = result.stderrLines.filter { $0.hasPrefix("plugboard: open: plugin 'BreakEventLoop'") }
    #expect(crash.count == 1, "\(result.stderr)")
    #expect(
      crash.allSatisfy { Self.isCrashReport($0, file: file, plugin: "BreakEventLoop") }, "\(result.stderr)")
  }

  /// The report of a fixture's crash in its constructor, blamed on it.
  static func isCrashReport(_ line: String, file: String, plugin: String) -> Bool {
    line.hasPrefix("plugboard: open: plugin '\(plugin)' (\(file)) crashed with SIG")
      && line.contains(" while being opened (in its library initialisers)")
  }

  static let runtimeWarning =
    "plugboard: warning: plugin 'CloseDescriptors' closed or replaced the runtime's descriptors "
  static let whileOpened =
    "while being opened (in its library initialisers) or in its entry point plugboard_entry_v1"
  static let putBack = "plugboard put them back. A plugin must close only the descriptors it opened."
  static let notPutBack =
    "plugboard could not put them back, and Dispatch's timers and sources may stop working. A plugin must "
    + "close only the descriptors it opened."

  /// The same constructor took the runtime's event loop (libdispatch's
  /// epoll, eventfd and timerfd, at the lowest numbers): no Dispatch timer
  /// or source fired again, so a start hook's time limit never came and
  /// SIGTERM went unhandled, and `run` hung for good. They are put back
  /// once the plugin's stage ends. (`timeout` bounds the old hang.)
  @Test func aPluginThatClosesTheRuntimesDescriptorsLeavesTimersWorking() throws {
    let (folder, manifest, _) = try CFixtures.deployment(
      "CloseDescriptors", optional: true, before: ["LifecycleProbe"], extras: #""hookTimeout": 2,"#)
    defer { withExtendedLifetime(folder) {} }
    let result = try Subprocess.run(
      "/usr/bin/timeout", ["-s", "KILL", "60", BuildProducts.plugboard, "run", "--manifest", manifest],
      environment: ["LIFECYCLE_PROBE": "hang-cache"])
    #expect(result.exited && result.status == 69, "\(result.stderr)")
    let lines = result.stderrLines
    #expect(lines.first?.hasPrefix(Self.runtimeWarning) == true, "\(result.stderr)")
    #expect(lines.first?.hasSuffix(" \(Self.whileOpened); \(Self.putBack)") == true)
    #expect(
      lines.dropFirst(2) == [
        "plugboard: run: plugin 'LifecycleProbe': the start hook of Cache "
          + "(LifecycleProbe/LifecycleProbePlugin.swift:24) did not finish within 2 s and was cancelled (if it "
          + "is only slow, raise \"hookTimeout\" in the manifest or pass --hook-timeout)",
        "plugboard: run: stopped the 2 services already started; the application was not run",
      ])
  }

  /// A plugin thread prints a line every millisecond, from bring-up to
  /// the end: what it prints goes to standard error, never into the JSON.
  @Test func aPluginThreadPrintingCannotBreakTheJSON() throws {
    let (folder, manifest, _) = try deployment("ChattyThread")
    defer { withExtendedLifetime(folder) {} }
    for attempt in 1...20 {
      let result = try Subprocess.plugboard(["list", "--json", "--manifest", manifest])
      #expect(result.exited && result.status == 1, "attempt \(attempt)")
      let json = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
      #expect(json != nil, "attempt \(attempt): \(result.stdout.prefix(300))")
      #expect(!result.stdout.contains("chatter"), "attempt \(attempt)")
    }
  }
}

/// Exit-time code (library destructors, `atexit` handlers) is plugin code:
/// bounded by the stage timeout, and a hang or a crash there is named as
/// such, keeping the status the command earned.
@Suite(.serialized, .blocking) struct ExitTimeCodeTests {
  private func deployment(_ fixture: String) throws -> (TemporaryDirectory, String) {
    let (folder, manifest, _) = try CFixtures.deployment(
      fixture, optional: true, before: ["Healthy"], extras: #""stageTimeout": 2,"#)
    return (folder, manifest)
  }

  /// A destructor that never returns: `list --json` prints its whole
  /// document, then ends, with the status it earned.
  @Test func aDestructorThatHangsIsStoppedAfterTheReport() throws {
    let (folder, manifest) = try deployment("DtorHang")
    defer { withExtendedLifetime(folder) {} }
    let process = try GroupedProcess(["list", "--json", "--manifest", manifest])
    #expect(try process.finish() == .exited(0))
    #expect((try? JSONSerialization.jsonObject(with: Data(process.stdout))) != nil)
    #expect(
      process.stderrText.split(separator: "\n").last.map(String.init)
        == "plugboard: list: plugin code run at exit (a library destructor or an atexit handler) did not finish "
        + "within 2 s after the report was written; it was stopped")
    #expect(process.groupIsGone)
  }

  /// The exit timeout is its own setting: with stages allowed a minute, a
  /// manifest's `exitTimeout` of 0.3 s stops the hanging destructor after
  /// 0.3 s, and `--exit-timeout` overrides the manifest's.
  @Test(arguments: [([String](), "2"), (["--exit-timeout", "1.5"], "1.5")])
  func theExitTimeoutBoundsExitTimeCodeAlone(flags: [String], limit: String) throws {
    let (folder, manifest, _) = try CFixtures.deployment(
      "DtorHang", optional: true, before: ["Healthy"], extras: #""stageTimeout": 60, "exitTimeout": 2,"#)
    defer { withExtendedLifetime(folder) {} }
    let process = try GroupedProcess(["list", "--json", "--manifest", manifest] + flags)
    #expect(try process.finish() == .exited(0))
    #expect((try? JSONSerialization.jsonObject(with: Data(process.stdout))) != nil)
    #expect(
      process.stderrText.split(separator: "\n").last.map(String.init)
        == "plugboard: list: plugin code run at exit (a library destructor or an atexit handler) did not finish "
        + "within \(limit) s after the report was written; it was stopped")
    #expect(process.groupIsGone)
  }

  /// A bad exit timeout is refused like a bad stage timeout: the flag as
  /// misuse, the manifest's key with its path.
  @Test func aBadExitTimeoutIsRefused() throws {
    let (folder, manifest, _) = try CFixtures.deployment("DtorHang", extras: #""exitTimeout": 0,"#)
    defer { withExtendedLifetime(folder) {} }
    let flag = try Subprocess.plugboard(["list", "--manifest", manifest, "--exit-timeout", "soon"])
    #expect(flag.status == 2)
    #expect(
      flag.stderrLines.first
        == "plugboard: --exit-timeout takes a number of seconds greater than 0 and at most 3600, found 'soon'"
    )
    let key = try Subprocess.plugboard(["list", "--manifest", manifest])
    #expect(key.status == 1)
    #expect(
      key.stderr.contains(
        "exitTimeout: expected a number of seconds greater than 0 and at most 3600, found 0"))
  }

  /// A destructor that crashes after the application returned 0: named as
  /// exit-time plugin code, not as a bug in plugboard, and the
  /// application's status stands.
  @Test func aDestructorThatCrashesAfterTheApplicationKeepsItsStatus() throws {
    let (folder, manifest) = try deployment("DtorCrash")
    defer { withExtendedLifetime(folder) {} }
    let result = try Subprocess.plugboard(["run", "--manifest", manifest])
    #expect(result.exited && result.status == 0)
    #expect(result.stdout == "Healthy is running\n")
    #expect(
      result.stderrLines.last.map(CrashLocation.masked)
        == "plugboard: run: plugin code run at exit (a library destructor or an atexit handler) crashed with "
        + "SIGSEGV (segmentation fault: a bad memory access) in plugin 'DtorCrash' (libDtorCrash.so+0x…) after "
        + "the application ended")
  }
}
