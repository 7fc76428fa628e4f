import PlugboardKit
import PlugboardSupervision
import Synchronization

/// What the person running a deployment command sees of bring-up while it
/// happens: with `--verbose`, each stage's time once it ends (see
/// ``StageTimeline``); on a terminal, the stage in progress once it is
/// slow (``ProgressIndicator``).
///
/// It follows the same announcements the supervisor does (every
/// ``ChildSession/report(_:)``, and its phases), in the process that runs plugin code,
/// so `--unsupervised` prints exactly what a supervised run prints, and the
/// lines are in order with the command's own diagnostics. The command
/// attaches it to the ``ChildSession`` before any plugin code runs;
/// the stages may be announced from more than one thread, so the timeline
/// is behind a lock.
package final class StageFeedback: Sendable {
  private let verbose: Bool
  private let indicator: ProgressIndicator?
  private let timeline: Mutex<StageTimeline>
  private let clock = ContinuousClock()

  package init(verbosity: Verbosity, indicator: ProgressIndicator?) {
    verbose = verbosity == .verbose
    self.indicator = indicator
    timeline = Mutex(StageTimeline(started: clock.now))
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
    let lines = timeline.withLock { timeline in
      switch event {
      case .stage(let stage, let plugin, _):
        return timeline.begin(stage, plugin: plugin, at: clock.now)
      case .running:
        let lines = timeline.finish(at: clock.now)
        _ = timeline.begin(.running, plugin: nil, at: clock.now)
        return lines
      default:
        return timeline.finish(at: clock.now)
      }
    }
    _ = plugboard_stdout_flush()
    for line in lines { StandardError.write(Terminal.sanitize(line), priority: .info) }
  }

  /// With `--verbose`, says how long a service's start or stop hook took:
  /// `plugboard: plugin 'Keychain': start hook of SecureStore took 0.1 ms`.
  /// Hooks run while the application is, one at a time, so this writes
  /// its line directly.
  func hookFinished(_ hook: LifecycleHook, of service: LifecycleService, took duration: Duration) {
    guard verbose else { return }
    let owner = service.registration.site.plugin.map { "plugin '\($0)': " } ?? ""
    _ = plugboard_stdout_flush()
    StandardError.write(
      Terminal.sanitize(
        "plugboard: \(owner)\(hook.rawValue) hook of \(service.key.shortDescription) took "
          + ElapsedTime.text(duration)), priority: .info)
  }
}
