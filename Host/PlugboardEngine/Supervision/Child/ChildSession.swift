import PlugboardKit
import PlugboardSupervision
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The process that runs plugin code, as one value: where bring-up's
/// progress goes (every stage and event, see ``ProgressEvent``, announced
/// here before it starts), and on to whoever follows it.
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
/// the loader, the deployment and the launch report to it. Bring-up and
/// the application's tasks may report from different threads, so what
/// changes is behind locks.
package final class ChildSession: Sendable {
  /// The supervising parent, once the child attached it (before any thread
  /// exists); nil when the process is not supervised.
  private let parent: Mutex<ParentLink?>
  /// The command's feedback; nil when it shows none (or brings nothing up).
  private let shown = Mutex<StageFeedback?>(nil)
  private let output = PluginOutputDiversion()
  /// Only in a supervised child: see ``RuntimeDescriptorRepair``.
  private let descriptors = RuntimeDescriptorRepair()

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

  /// Announces `event`, before what it names starts.
  package func report(_ event: ProgressEvent) {
    let link = self.link
    if event == .reporting || event == .running { output.restore(for: event, supervised: link != nil) }
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
    case .reporting, .running:
      descriptors.stageBegins(nil, plugin: nil)
      let phase: StageWatch.Phase = event == .running ? .running : .reporting
      if link.enter(phase) == .bringingUp { plugboard_release_request_signals() }
      if event == .running { plugboard_note_application_running() }
      link.recordPhase()
    case .stageTimeout:
      link.sendTimeoutOnce(event)
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

  /// Sends what plugin code prints to standard error until the report or
  /// the application starts (``report(_:)`` with `.reporting` or
  /// `.running`): a plugin that prints while it registers must not put its
  /// line in front of `list --json`'s JSON. Supervised or not.
  package func divertPluginOutput() {
    output.divert()
  }
}
