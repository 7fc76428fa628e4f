import PlugboardLaunch
import PlugboardSupervision

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a deployment command in a child process and reports for it, so
/// that no plugin can take `plugboard` down with it.
///
/// `dlopen` runs a library's code the moment it opens it, and no handler
/// can make a process survive arbitrary native code; so the process that
/// loads plugins is never the process that reports. The executable calls
/// ``superviseIfNeeded(_:)`` first thing, while it has one thread, and the
/// process forks: the child goes on to run the command, announcing every
/// stage of bring-up in memory it shares with the parent (see
/// ``StageRecord``) and its rare events on a pipe (see ``ProgressEvent``);
/// the parent, which never loads a plugin, follows it.
///
/// - The child's exit status is passed through, and standard input, output
///   and error are the parent's own (a terminal stays a terminal).
/// - If plugin code crashes, exits or hangs during bring-up, the parent
///   starts a new child with that plugin quarantined: the new child reports
///   it as a failed plugin in the ordinary way (`list --json` stays JSON)
///   and carries on, so one run names every bad plugin.
/// - A crash while the `Application` is resolved names the registration
///   being made; a crash of the running application is reported with its
///   signal, and the exit status is 128 + the signal's number, as shells
///   report it. A crash plugboard cannot set aside ends `run` with
///   ``ExitStatus/runCrashed`` (70) and the other commands with 1.
/// - SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to the parent are passed on,
///   in a way that lets the child tell one request sent to the whole group
///   from two. A request during bring-up stops the command (a child that
///   does not end by it within ``stopGrace`` is killed); no plugin is set
///   aside for it. When a request ended the child, the parent ends by the
///   same signal (see `plugboard_exit`), as shells and service managers
///   expect; ``superviseIfNeeded(_:)``'s caller exits through
///   `Plugboard.exit`.
/// - For `plugboard run` (`reloadsOnHangup`), once the deployment is
///   ready, SIGHUP sent to the parent by
///   a process (`kill -HUP`, systemd's reload) is not passed on: it reloads
///   the deployment. A new child is forked beside the running one and
///   replaces it only once its start hooks ran (see ``ReloadFollower``);
///   one that fails is ended and reported, and the running one carries on.
///
/// Forking rather than starting the executable again saves the second
/// start of the Swift runtime and Foundation (see BENCHMARKS.md); it is
/// safe only because it happens before any thread exists, which is why the
/// parent never uses Swift concurrency, Dispatch or Foundation's `Process`.
package struct Supervisor {
  /// The command that runs the deployment's Application: the one a
  /// service manager starts, and the one an embedding program's supervised
  /// run reports as.
  package static let runCommand = "run"
  /// The commands that bring a deployment up: the launcher's list, so the
  /// two cannot disagree about which commands fork.
  package static let supervisedCommands: Set<String> = {
    var commands: Set<String> = []
    var index: Int32 = 0
    while let command = plugboard_supervised_command(index) {
      commands.insert(String(cString: command))
      index += 1
    }
    return commands
  }()
  static let defaultStageTimeout = Duration.seconds(10)
  /// How long a crashing child may take to write its crash report (the
  /// Swift runtime's backtrace) before it is killed.
  static let crashReportTimeout = Duration.seconds(30)
  /// How long a child asked to stop during bring-up may take to end before
  /// it is killed: its own stop needs no time (nothing has started), so
  /// this only bounds plugin code that ignores or blocks the signal.
  static let stopGrace = Duration.seconds(1)

  let command: String
  /// `--stage-timeout`, when given.
  let timeout: Duration?
  /// `--exit-timeout`, when given.
  var exitTimeout: Duration? = nil
  /// Whether SIGHUP reloads `run` once it is up (see ``ReloadFollower``);
  /// otherwise it stops it, as it stops every other command.
  var reloadsOnHangup = false
  /// The session the command runs in, which a child forked here attaches
  /// to its parent before it returns to run the command.
  let session: ChildSession

  package init(
    command: String, timeout: Duration?, exitTimeout: Duration? = nil, reloadsOnHangup: Bool = false,
    session: ChildSession
  ) {
    self.session = session
    self.command = command
    self.timeout = timeout
    self.exitTimeout = exitTimeout
    self.reloadsOnHangup = reloadsOnHangup && command == Self.runCommand
  }

  enum Decision {
    case exit(Int32)
    case quarantine(plugin: String, DeploymentProblem)
    case report([String], status: Int32)
    /// Stopped by `signal`, a request: the parent ends by it too.
    case stop(signal: Int32, [String])
  }

  /// Supervises the command: forks, and returns `nil` in the child, which
  /// must go on and run it, and the exit status in the parent. With a
  /// ``LauncherHandoff`` of role `.parent`, the launcher forked already: its child
  /// is followed first, and only a retry forks here. Returns `nil` when the
  /// process cannot fork (the command then runs unsupervised rather than
  /// not at all).
  package func supervise(adopting launch: LauncherHandoff? = nil) -> Int32? {
    var quarantine: [String: DeploymentProblem] = [:]
    let notifier = SystemdNotifier.fromEnvironment(command: command)
    // Processes plugin code starts stay plugboard's descendants, to be
    // ended with the child that started them.
    _ = plugboard_become_subreaper()
    // Before any signal is unblocked: the launcher kept one waiting may be
    // a SIGHUP for a child already up. The follower decides what it does.
    if reloadsOnHangup { plugboard_reload_on_hangup() }
    var launched = launch?.role == .parent ? launch : nil
    while true {
      let started: FollowedChild
      if let adopted = launched {
        launched = nil
        guard let child = adopt(adopted) else { continue }
        started = child
      } else {
        guard case .started(let child) = startChild(quarantine: quarantine) else { return nil }
        started = child
      }
      notifier?.loading(setAside: quarantine.keys.sorted())
      guard let (child, ending) = followToItsEnd(started, notifier: notifier) else { return nil }
      if let status = answer(decide(ending, child.watch), quarantine: &quarantine, notifier: notifier) {
        return status
      }
    }
  }

  /// Follows `started` (and the deployments reloads put in its place)
  /// until the deployment's child ended, and ends what it left behind;
  /// nil in a child forked for a reload, which goes on to run the command.
  private func followToItsEnd(_ started: FollowedChild, notifier: SystemdNotifier?) -> (
    FollowedChild, ChildEnding
  )? {
    let requests = plugboard_forward_signals(started.pid)
    plugboard_unblock_forwarded_signals()
    guard
      case .ended(let child, let ending) = followDeployment(started, requests: requests, notifier: notifier)
    else { return nil }
    // Whatever the child left behind (a process a constructor forked,
    // holding standard output) ends with it.
    _ = plugboard_end_descendants()
    child.release()
    return (child, ending)
  }

  /// Carries out what ``decide(_:_:)`` made of a child's end: the exit
  /// status the parent ends with, after reporting; nil when a plugin is
  /// set aside in `quarantine`, and a new child is to be started without
  /// it.
  private func answer(
    _ decision: Decision, quarantine: inout [String: DeploymentProblem], notifier: SystemdNotifier?
  ) -> Int32? {
    switch decision {
    case .exit(let status):
      if status != 0 { notifier?.failedToComeUp(Self.summary(ofStatus: status)) }
      return status
    case .report(let lines, let status):
      for line in lines { StandardError.write(line, priority: .error) }
      notifier?.failedToComeUp(summary(of: lines, status: status))
      return status
    case .stop(let signal, let lines):
      for line in lines { StandardError.write(line, priority: .error) }
      plugboard_end_by_signal_at_exit(signal)
      return 128 + signal
    case .quarantine(let plugin, let problem):
      guard quarantine[plugin] == nil else { return alreadySetAside(problem) }
      quarantine[plugin] = problem
      return nil
    }
  }

  /// The child the launcher forked, followed from its record; nil when the
  /// record cannot be mapped: the child is then ended, and started again
  /// here.
  private func adopt(_ adopted: LauncherHandoff) -> FollowedChild? {
    guard let record = adopted.mapRecord() else {
      kill(adopted.peer, SIGKILL)
      _ = plugboard_end_descendants()
      close(adopted.progress)
      return nil
    }
    _ = fcntl(adopted.progress, F_SETFD, FD_CLOEXEC)
    return FollowedChild(
      pid: adopted.peer, progress: adopted.progress, record: record, timeout: timeout,
      exitTimeout: exitTimeout)
  }

  /// A plugin set aside came down again: something other than the
  /// plugin's own code is failing. Says so rather than loop.
  private func alreadySetAside(_ problem: DeploymentProblem) -> Int32 {
    StandardError.write(Terminal.sanitize("plugboard: \(problem)"), priority: .error)
    StandardError.write(
      "plugboard: \(command): the plugin was already set aside and the process still failed; "
        + "run with --unsupervised to see the failure directly", priority: .error)
    return ExitStatus.crashed(command: command)
  }

  enum Start {
    /// This process is the new child: it goes on to run the command.
    case inChild
    /// No child could be started (no memory for the record, no pipe, no
    /// fork).
    case failed
    case started(FollowedChild)
  }

  /// Forks a new child to run the command, with `quarantine`'s plugins set
  /// aside; `beside`, a child still running (a reload's), is none of the
  /// new child's business. The forwarded signals stay blocked in the
  /// parent when it returns `.started`, until it forwards them.
  func startChild(quarantine: [String: DeploymentProblem], beside running: FollowedChild? = nil) -> Start {
    // Not deferred: the child returns from here too, and keeps it.
    guard let created = StageRecord.create() else { return .failed }
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else {
      created.destroy()
      return .failed
    }
    // Until the parent forwards them, a signal sent to it must wait
    // rather than end it with the child still running.
    plugboard_block_forwarded_signals()
    let forked = plugboard_fork()
    if forked < 0 {
      plugboard_unblock_forwarded_signals()
      close(ends[0])
      close(ends[1])
      created.destroy()
      return .failed
    }
    if forked == 0 {
      running?.forgetInNewChild()
      // Sockets passed by systemd's socket activation are the
      // application's, which runs here.
      plugboard_hand_over_listen_fds(getppid())
      close(ends[0])
      Self.continueAsChild(session, progress: ends[1], record: created, quarantine: quarantine)
      return .inChild
    }
    close(ends[1])
    return .started(
      FollowedChild(
        pid: forked, progress: ends[0], record: created, timeout: timeout, exitTimeout: exitTimeout))
  }

  /// What systemd's status says of a `run` that ended with `status` of its
  /// own before it was ready: the status and its meaning (the journal has
  /// the child's report).
  static func summary(ofStatus status: Int32) -> String {
    "\(meaning(ofStatus: status)); the journal has the report"
  }

  /// What `run`'s own exit status `status` means, and the status.
  static func meaning(ofStatus status: Int32) -> String {
    let meaning =
      switch ExitStatus(rawValue: status) {
      case .runBroken?: "the deployment is broken"
      case .runStartFailed?: "a start hook failed"
      case .runCrashed?: "plugin code crashed or hung"
      case .runMisuse?: "the command line is wrong"
      default: "plugboard ended"
      }
    return "\(meaning) (exit status \(status))"
  }

  /// What systemd's status says of a child whose end the parent reported
  /// in `lines`: their first, without the `plugboard: ` every line opens
  /// with.
  func summary(of lines: [String], status: Int32) -> String {
    guard let first = lines.first else { return Self.summary(ofStatus: status) }
    let line = first.hasPrefix("plugboard: ") ? String(first.dropFirst("plugboard: ".count)) : first
    return "\(line) (exit status \(status))"
  }

  /// In a child the launcher forked and that started the host (a
  /// ``LauncherHandoff`` of role `.child`): becomes the supervised child, as one
  /// forked by ``supervise(adopting:)`` does, with `session` attached to
  /// its parent, and returns. The caller then runs the command in it.
  package static func continueLaunchedChild(_ launch: LauncherHandoff, session: ChildSession) {
    plugboard_adopt_as_child(launch.peer)
    // The parent reads a record it cannot find in memory it never mapped:
    // a stage then goes unnamed in its reports, and the rest holds.
    let record = launch.mapRecord() ?? StageRecord.create()
    continueAsChild(session, progress: launch.progress, record: record, quarantine: [:])
  }

  /// The rest of a new child's start, however it was forked: `session`
  /// reports to the parent from now on.
  private static func continueAsChild(
    _ session: ChildSession, progress: Int32, record: StageRecord?, quarantine: [String: DeploymentProblem]
  ) {
    SystemdNotifier.hideFromPluginCode()
    plugboard_stop_forwarding()
    plugboard_unblock_forwarded_signals()
    // Out of the way of the low numbers plugin code takes; checked
    // before each use (plugin code may close it all the same).
    let descriptor = plugboard_move_high(progress)
    if let record {
      session.attach(
        ParentLink(descriptor: descriptor, record: record, quarantine: quarantine))
    }
  }

  func decide(_ ending: ChildEnding, _ watch: StageWatch) -> Decision {
    let report = CrashReport(ending: ending, watch: watch)
    if let earned = watch.exiting?.status {
      // The report was written, or the application ended: what failed is
      // exit-time plugin code, and the status earned before it stands.
      switch ending {
      case .exited(let status): return .exit(status)
      case .signaled(let signal) where SignalName.isRequest(signal) && watch.crash == nil:
        return .stop(signal: signal, [])
      case .signaled, .hung: return .report(report.exitLines(command: command), status: earned)
      }
    }
    switch watch.phase {
    case .running:
      guard case .signaled(let signal) = ending else {
        if case .exited(let status) = ending { return .exit(status) }
        return .exit(ExitStatus.crashed(command: command))
      }
      if SignalName.isRequest(signal) { return .stop(signal: signal, []) }
      return .report(report.applicationLines(command: command), status: 128 + signal)
    case .reporting:
      switch ending {
      case .exited(let status): return .exit(status)
      case .signaled(let signal) where SignalName.isRequest(signal): return .stop(signal: signal, [])
      default:
        return .report(report.internalLines(command: command), status: ExitStatus.crashed(command: command))
      }
    case .bringingUp:
      // A request to stop stops the command, whatever the child did
      // meanwhile: no plugin is set aside for it.
      let request = plugboard_stop_request()
      if request != 0 { return .stop(signal: request, report.ignoredRequestLines(request)) }
      if case .signaled(let signal) = ending, SignalName.isRequest(signal), watch.selfSignal != signal {
        return .stop(signal: signal, [])
      }
      guard let stage = watch.stage else {
        if case .exited(let status) = ending { return .exit(status) }
        return .report(report.internalLines(command: command), status: ExitStatus.crashed(command: command))
      }
      // By address when the crash record names a plugin's code, else by
      // the stage.
      if let (plugin, problem) = report.blame(stage: stage, stagePlugin: watch.plugin) {
        return .quarantine(plugin: plugin, problem)
      }
      return .report(
        report.stageLines(stage: stage, command: command), status: ExitStatus.crashed(command: command))
    }
  }
}
