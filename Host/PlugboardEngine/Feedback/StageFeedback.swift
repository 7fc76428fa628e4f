import PlugboardKit
import PlugboardSupervision

/// What the person running a deployment command sees of bring-up while it
/// happens: with `--verbose`, each stage's time once it ends (see
/// ``StageTimeline``); on a terminal, the stage in progress once it is
/// slow (``ProgressIndicator``).
///
/// It follows the same announcements the supervisor does (every
/// ``Progress/report(_:)``), in the process that runs plugin code, so
/// `--unsupervised` prints exactly what a supervised run prints, and the
/// lines are in order with the command's own diagnostics.
package final class StageFeedback {
  /// The feedback of the command being run; nil when it brings nothing up.
  /// Set once, before any plugin code runs.
  package nonisolated(unsafe) static var current: StageFeedback?

  private let verbose: Bool
  private let indicator: ProgressIndicator?
  private var timeline: StageTimeline
  private let clock = ContinuousClock()

  package init(verbosity: Verbosity, indicator: ProgressIndicator?) {
    verbose = verbosity == .verbose
    self.indicator = indicator
    timeline = StageTimeline(started: clock.now)
  }

  func observe(_ event: ProgressEvent) {
    switch event {
    case .stage(let stage, let plugin, _): indicator?.begin(stage, plugin: plugin)
    case .running, .reporting: indicator?.stop()
    case .stageTimeout, .crash, .crashSite, .making, .selfSignal, .exiting, .privateFolder, .ready, .stopping,
      .inventory:
      return
    }
    // The timeline's lines are text built per stage: only `--verbose`
    // prints them, so only `--verbose` pays for them.
    guard verbose else { return }
    let lines: [String]
    switch event {
    case .stage(let stage, let plugin, _):
      lines = timeline.begin(stage, plugin: plugin, at: clock.now)
    case .running:
      lines = timeline.finish(at: clock.now)
      _ = timeline.begin(.running, plugin: nil, at: clock.now)
    default:
      lines = timeline.finish(at: clock.now)
    }
    _ = plugboard_stdout_flush()
    for line in lines { StandardError.write(Terminal.sanitize(line), priority: .info) }
  }

  /// With `--verbose`, says how long a service's start or stop hook took:
  /// `plugboard: plugin 'Keychain': start hook of SecureStore took 0.1 ms`.
  /// Hooks run while the application is, one at a time, so this writes
  /// its line directly.
  static func hookFinished(_ hook: LifecycleHook, of service: LifecycleService, took duration: Duration) {
    guard let current, current.verbose else { return }
    let owner = service.registration.site.plugin.map { "plugin '\($0)': " } ?? ""
    _ = plugboard_stdout_flush()
    StandardError.write(
      Terminal.sanitize(
        "plugboard: \(owner)\(hook.rawValue) hook of \(service.key.shortDescription) took "
          + ElapsedTime.text(duration)), priority: .info)
  }
}
