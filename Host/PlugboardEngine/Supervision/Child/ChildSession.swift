import PlugboardKit
import PlugboardSupervision
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The process that runs plugin code, as one value: where bring-up's
/// progress goes (every stage and event, see ``ProgressEvent``, announced
/// here before it starts), and the phase the command is in.
///
/// - The terminal's feedback (``StageFeedback``), when the command shows
///   one.
/// - What plugins print: diverted to standard error while they load, and
///   given back when the report or the application starts
///   (``PluginOutputDiversion``).
/// - In a supervised child, the parent (``ParentLink``): each stage in the
///   shared record, so that if plugin code crashes or hangs in it the
///   parent knows which plugin and which stage, and the rare events down
///   the pipe; the runtime's descriptors, put back after plugin code that
///   took them (``RuntimeDescriptorRepair``); and each thread that runs
///   plugin code, made ready for a crash report (``CrashReporting``).
///
/// When the process is not supervised (`--unsupervised`, an embedding
/// program, the tests), there is no parent, and only the feedback and the
/// diversion of standard output remain.
///
/// Made in `main`, before the supervisor forks, and handed down: the
/// supervised child attaches its parent to it before any thread exists,
/// the command its feedback before any plugin code runs, and the request,
/// the loader, the deployment and the launch report to it. Its phases are
/// values (``BringingUp``, ``Reporting``, ``ApplicationRunning``,
/// ``ProgramRunning``), each made by consuming the one before, so that the
/// report or the application can only begin in order, and only where the
/// command holds the phase: ``report(_:)`` only reports. Bring-up and the
/// application's tasks may report from different threads, so what changes
/// is behind locks.
package final class ChildSession: Sendable {
  /// The supervising parent, once the child attached it (before any thread
  /// exists); nil when the process is not supervised.
  private let parent: Mutex<ParentLink?>
  /// The command's feedback; nil when it shows none (or brings nothing up).
  private let shown = Mutex<StageFeedback?>(nil)
  private let output = PluginOutputDiversion()
  /// Only in a supervised child: see ``RuntimeDescriptorRepair``.
  private let descriptors = RuntimeDescriptorRepair()
  /// The phase entered last, which the phase values move on.
  private let phase = Mutex(StageWatch.Phase.bringingUp)

  /// A session with no parent: a supervised child's once ``attach(_:)``
  /// gave it one.
  package init() {
    parent = Mutex(nil)
  }

  /// A session reporting to `parent`, with none of ``attach(_:)``'s
  /// effects on the process.
  init(parent: ParentLink?) {
    self.parent = Mutex(parent)
  }

  private var link: ParentLink? { parent.withLock { $0 } }

  /// Makes this (forked) process report its stages and rare events to
  /// `link`'s parent, and catch fatal signals to say what was being
  /// resolved when they came. Once, where the child starts.
  func attach(_ link: ParentLink) {
    // Before any plugin code runs, which may point descriptor 2 elsewhere:
    // the report is written here, and must reach plugboard's standard error.
    StandardError.keep(parent: getppid())
    parent.withLock { $0 = link }
    CrashReporting.install(reportingTo: link.descriptor)
  }

  /// Shows bring-up's stages through `feedback` from now on.
  package func attach(feedback: StageFeedback?) {
    shown.withLock { $0 = feedback }
  }

  /// The command's feedback, for what it says while the application runs
  /// (hooks' times with `--verbose`).
  package var feedback: StageFeedback? { shown.withLock { $0 } }

  /// Whether a supervising parent follows this process: a `run` that is
  /// not supervised has no one to reload it, for example.
  package var isSupervised: Bool { link != nil }

  /// Plugins the parent took out of this run after they brought an
  /// earlier child down, by name, with the problem to report for each.
  var quarantine: [String: DeploymentProblem] { link?.quarantine ?? [:] }

  /// The manifest's time limits, for the parent to time stages and
  /// exit-time code with from now on; nothing when it sets neither.
  package func announceLimits(of manifest: Manifest) {
    guard manifest.stageTimeout != nil || manifest.exitTimeout != nil else { return }
    report(.stageTimeout(manifest.stageTimeout ?? Supervisor.defaultStageTimeout, exit: manifest.exitTimeout))
  }

  /// Announces `event`, before what it names starts. The report and the
  /// application begin by their phases' transitions, not here: a
  /// `.reporting` or `.running` given here is not announced.
  package func report(_ event: ProgressEvent) {
    if event == .reporting || event == .running { return }
    feedback?.observe(event)
    guard let link else { return }
    switch event {
    case .stage(let stage, let plugin, let file):
      // The parent believes the first stage timeout it reads: it must be
      // plugboard's, sent before any plugin code can write to the pipe.
      if plugin != nil || stage.resolvesRegistrations {
        link.sendTimeoutOnce(.stageTimeout(Supervisor.defaultStageTimeout))
      }
      CrashReporting.prepareThread(for: stage, plugin: plugin, file: file)
      descriptors.stageBegins(stage, plugin: plugin)
      link.publish(stage, plugin: plugin, file: file)
    case .stageTimeout:
      link.sendTimeoutOnce(event)
    case .reporting, .running:
      return
    case .crash, .crashSite, .making, .selfSignal, .exiting, .privateFolder, .ready, .stopping, .inventory:
      link.send(event.line)
    }
  }

  /// A stage of the plugin `name` (its library `file`) begins.
  func stage(_ stage: LoadStage, _ name: String, file: String) {
    report(.stage(stage, plugin: name, file: file))
  }

  /// What `deployment` brought up, for the parent to say what a reload
  /// changed: in one write, whatever the number of plugins.
  func announceInventory(of deployment: Deployment) {
    guard let link else { return }
    let lines = DeploymentInventory.items(of: deployment).map { ProgressEvent.inventory($0).line }
    link.send(lines.joined(separator: "\n"))
  }

  /// Bring-up begins: the first phase of a command, or of a program's
  /// bring-up. With `divertingPluginOutput`, what plugin code prints goes
  /// to standard error until the report or the application starts: a
  /// plugin that prints while it registers must not put its line in front
  /// of `list --json`'s JSON. Supervised or not.
  package func beginBringUp(divertingPluginOutput: Bool) -> BringingUp {
    if divertingPluginOutput { output.divert() }
    // Scheduled here, on the command's thread, not where the child
    // attaches its parent: there the main thread, which then starts
    // Dispatch's main queue, would set the event loop up itself.
    if link != nil { descriptors.beginSettling() }
    return BringingUp(self)
  }

  /// Enters `next` (`.reporting` or `.running`), when the session is in
  /// `expected` (any phase when nil); only the phase values call it, each
  /// from the phase it stands for.
  private func enter(_ next: StageWatch.Phase, from expected: StageWatch.Phase? = nil) {
    let left = phase.withLock { current -> StageWatch.Phase? in
      guard expected == nil || current == expected else { return nil }
      defer { current = next }
      return current
    }
    guard left != nil else { return }
    let event: ProgressEvent = next == .running ? .running : .reporting
    let link = self.link
    output.restore(for: event, supervised: link != nil)
    feedback?.observe(event)
    guard let link else { return }
    descriptors.stageBegins(nil, plugin: nil)
    if link.enter(next) == .bringingUp { plugboard_release_request_signals() }
    if next == .running { plugboard_note_application_running() }
    link.recordPhase()
  }
}

extension ChildSession {
  /// Bring-up, the first phase: plugin code loads, its standard output
  /// diverted, each stage timed by the parent. It ends by
  /// ``beginReport()`` or ``handOverToApplication(of:)`` (in a program that
  /// embeds the host, ``handOverToProgram()``), each of which consumes it.
  /// Dropped without either (a command that failed before its report), it
  /// begins the report then: whatever path the command took, no plugin
  /// code runs after it.
  package struct BringingUp: ~Copyable, Sendable {
    package let session: ChildSession

    fileprivate init(_ session: ChildSession) {
      self.session = session
    }

    /// The command's report begins: no plugin code runs any more, so no
    /// stage deadline applies, and what plugboard writes to standard
    /// output goes through its own descriptor of it (descriptor 1 stays
    /// standard error, for what plugin threads still print).
    package consuming func beginReport() -> Reporting {
      session.enter(.reporting)
      return Reporting(session: session)
    }

    /// The application of `deployment` starts, with its start hooks: what
    /// the deployment brought up goes to the parent (which compares it
    /// with the next deployment's when it reloads), standard output is the
    /// application's again, and the command's exit status is the
    /// application's.
    package consuming func handOverToApplication(of deployment: Deployment) -> ApplicationRunning {
      session.announceInventory(of: deployment)
      session.enter(.running)
      return ApplicationRunning(session: session)
    }

    /// In a program that embeds the host, bring-up is over and the
    /// program's own work follows: for the parent, as a report, whose
    /// ending (an exit with its status) is not a plugin's.
    package consuming func handOverToProgram() -> ProgramRunning {
      session.enter(.reporting)
      return ProgramRunning(session: session)
    }

    deinit {
      session.enter(.reporting, from: .bringingUp)
    }
  }

  /// The command writes its report; the last phase.
  package struct Reporting: ~Copyable, Sendable {
    package let session: ChildSession

    fileprivate init(session: ChildSession) {
      self.session = session
    }
  }

  /// The application runs (its start hooks first): its exit status is the
  /// command's. It ends by ``beginReport()``, once the application and its
  /// services ended, or a start hook failed.
  package struct ApplicationRunning: ~Copyable, Sendable {
    package let session: ChildSession

    fileprivate init(session: ChildSession) {
      self.session = session
    }

    /// The run is over (or a start hook failed, and the status is
    /// plugboard's): the command reports what it has to say.
    package consuming func beginReport() -> Reporting {
      session.enter(.reporting)
      return Reporting(session: session)
    }
  }

  /// A program that embeds the host works with the deployment it brought
  /// up; it may still run its application (``handOverToApplication(of:)``).
  package struct ProgramRunning: ~Copyable, Sendable {
    package let session: ChildSession

    fileprivate init(session: ChildSession) {
      self.session = session
    }

    /// As ``BringingUp/handOverToApplication(of:)``.
    package consuming func handOverToApplication(of deployment: Deployment) -> ApplicationRunning {
      session.announceInventory(of: deployment)
      session.enter(.running)
      return ApplicationRunning(session: session)
    }
  }
}
