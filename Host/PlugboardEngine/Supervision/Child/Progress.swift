import PlugboardKit
import PlugboardSupervision

#if canImport(Glibc)
  import Glibc
#endif

/// The supervised child's side of supervision: every stage of bring-up is
/// recorded before it starts, in the ``StageRecord`` shared with the
/// parent (no system call), so that if plugin code crashes or hangs in it,
/// the parent knows which plugin and which stage. The rare events (the
/// manifest's stage timeout, a crash and its resolution chain) go down the
/// progress pipe as lines (see ``ProgressEvent``).
///
/// When the process is not supervised (`--unsupervised`, an embedding
/// program, the tests), there is no record and no pipe and every call does
/// nothing but feed the terminal's feedback.
package enum Progress {
  /// The pipe's write end and the record shared with the parent; set
  /// together, once, in the child, before any thread exists.
  nonisolated(unsafe) private static var parent: (descriptor: Int32, record: StageRecord)?
  /// Bring-up until the first `.reporting` or `.running`, then the last
  /// of those: a stage recorded after them keeps it.
  nonisolated(unsafe) private static var phase = StageWatch.Phase.bringingUp
  /// Whether the stage timeout went to the parent (once, before any plugin
  /// code runs; the manifest's, else the default).
  nonisolated(unsafe) private static var timeoutSent = false

  /// Plugins the parent took out of this run after they brought an
  /// earlier child down, by name, with the problem to report for each.
  nonisolated(unsafe) private(set) static var quarantine: [String: DeploymentProblem] = [:]

  /// Makes this (forked) process record its stages in `record`, report
  /// rare events to `descriptor`, and catch fatal signals to say what was
  /// being resolved when they came.
  static func start(descriptor: Int32, record: StageRecord, quarantine: [String: DeploymentProblem]) {
    // Before any plugin code runs, which may point descriptor 2 elsewhere:
    // the report is written here, and must reach plugboard's standard error.
    StandardError.keep(parent: getppid())
    self.parent = (descriptor, record)
    self.quarantine = quarantine
    plugboard_install_crash_reporter(descriptor) { fd in
      guard plugboard_progress_is_intact() != 0 else { return }
      for link in ResolutionTrace.activeChain() {
        let site = link.site.map(\.description) ?? ""
        DescriptorLine.write(ProgressEvent.making(type: link.key.description, site: site).line, to: fd)
      }
    }
  }

  package static var isSupervised: Bool { parent != nil }

  /// The manifest's time limits, for the parent to time stages and
  /// exit-time code with from now on; nothing when it sets neither.
  package static func announceLimits(of manifest: Manifest) {
    guard manifest.stageTimeout != nil || manifest.exitTimeout != nil else { return }
    report(.stageTimeout(manifest.stageTimeout ?? Supervisor.defaultStageTimeout, exit: manifest.exitTimeout))
  }

  package static func report(_ event: ProgressEvent) {
    if event == .reporting || event == .running { restorePluginOutput(for: event) }
    StageFeedback.current?.observe(event)
    guard let parent else { return }
    switch event {
    case .stage(let stage, let plugin, let file):
      // The parent believes the first stage timeout it reads: it must be
      // plugboard's, sent before any plugin code can write to the pipe.
      if !timeoutSent, plugin != nil || stage.resolvesRegistrations {
        report(.stageTimeout(Supervisor.defaultStageTimeout))
      }
      // Whatever thread runs plugin code gets an alternate signal stack
      // (a thread-local check after its first stage), so that a stack
      // overflow there is still reported; and an address in a plugin's
      // library is blamed on it, whichever stage it crashes in.
      prepareForCrashes(stage, plugin: plugin, file: file)
      RuntimeDescriptors.stageBegins(stage, plugin: plugin)
      parent.record.publish(stage, plugin: plugin, file: file, phase: phase)
    case .reporting, .running:
      RuntimeDescriptors.stageBegins(nil, plugin: nil)
      if phase == .bringingUp { plugboard_release_request_signals() }
      if event == .running { plugboard_note_application_running() }
      phase = event == .running ? .running : .reporting
      parent.record.enter(phase)
    case .stageTimeout:
      guard !timeoutSent else { return }
      timeoutSent = true
      writeLine(event, to: parent.descriptor)
    case .crash, .crashSite, .making, .selfSignal, .exiting, .privateFolder, .ready, .stopping, .inventory:
      writeLine(event, to: parent.descriptor)
    }
  }

  private static func prepareForCrashes(_ stage: LoadStage, plugin: String?, file: String?) {
    plugboard_prepare_thread_for_crashes()
    if stage == .open, let plugin, let file { plugboard_note_plugin_library(plugin, file) }
  }

  /// Never into a file of plugin code's that took the pipe's number.
  private static func writeLine(_ event: ProgressEvent, to descriptor: Int32) {
    guard plugboard_progress_is_intact() != 0 else { return }
    DescriptorLine.write(event.line, to: descriptor)
  }

  /// What `deployment` brought up, for the parent to say what a reload
  /// changed: in one write, whatever the number of plugins.
  static func announceInventory(of deployment: Deployment) {
    guard let parent, plugboard_progress_is_intact() != 0 else { return }
    let lines = DeploymentInventory.items(of: deployment).map { ProgressEvent.inventory($0).line }
    DescriptorLine.write(lines.joined(separator: "\n"), to: parent.descriptor)
  }

  /// A stage of `entry`'s plugin begins.
  static func stage(_ stage: LoadStage, _ name: String, file: String) {
    report(.stage(stage, plugin: name, file: file))
  }

  // MARK: What plugins print

  /// Standard output as it was, while it is diverted: plugboard's own
  /// descriptor of it (at a high number, close-on-exec) and what it
  /// refers to, since plugin code may close it or take its number.
  nonisolated(unsafe) private static var savedOutput: (descriptor: Int32, identity: plugboard_file_identity)?

  /// Sends what plugin code prints to standard error until the report or
  /// the application starts (``report(_:)`` with `.reporting` or
  /// `.running`): a plugin that prints while it registers must not put its
  /// line in front of `list --json`'s JSON. Supervised or not.
  package static func divertPluginOutput() {
    guard savedOutput == nil else { return }
    // Unsupervised, plugboard's standard error is kept here, with no parent
    // to take it back from; a supervised child kept it when it started.
    StandardError.keep(parent: 0)
    _ = plugboard_stdout_flush()
    let saved = plugboard_move_high(dup(STDOUT_FILENO))
    var identity = plugboard_file_identity()
    guard saved >= 0, plugboard_identity(saved, &identity) == 0 else {
      if saved >= 0 { close(saved) }
      return
    }
    guard dup2(STDERR_FILENO, STDOUT_FILENO) >= 0 else {
      close(saved)
      return
    }
    savedOutput = (saved, identity)
  }

  /// The application gets standard output back (`.running`). A report
  /// (`.reporting`) is written through plugboard's own descriptor instead,
  /// and descriptor 1 stays standard error: what plugin threads still
  /// print cannot get into `--json` output.
  private static func restorePluginOutput(for event: ProgressEvent) {
    guard let saved = savedOutput else { return }
    _ = plugboard_stdout_flush()
    savedOutput = nil
    let descriptor = ownOutput(saved)
    guard descriptor >= 0 else { return }
    if event == .running {
      dup2(descriptor, STDOUT_FILENO)
      close(descriptor)
    } else if plugboard_stdout_use_descriptor(descriptor) != 0 {
      close(descriptor)
    }
  }

  /// `saved`, if it still refers to standard output; else, when plugin
  /// code closed or replaced it, standard output again, from the parent's
  /// (which no plugin touches), with a warning; -1 when neither can be had
  /// (the report then goes to standard error, the last resort).
  private static func ownOutput(_ saved: (descriptor: Int32, identity: plugboard_file_identity)) -> Int32 {
    if plugboard_is_same_file(saved.descriptor, saved.identity) != 0 { return saved.descriptor }
    let reopened = isSupervised ? plugboard_open_from_process(getppid(), STDOUT_FILENO, saved.identity) : -1
    StandardError.write(
      "plugboard: warning: plugin code closed or replaced plugboard's descriptor of standard output while "
        + "the plugins loaded; "
        + (reopened >= 0
          ? "plugboard took standard output back from its supervising process"
          : "what plugboard writes to standard output goes to standard error"),
      priority: .warning)
    return reopened
  }
}
